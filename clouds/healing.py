"""What each cloud's cluster does when a node is lost: who replaces it, and how long it takes.

Each cloud's answer is its `Cloud.healing` (`clouds/<cloud>/__init__.py`; unset means
`clouds.base.manual_healing`). `restart_hours` is the time from a spot interruption to the job
running again on a full cluster; the spot estimate (`profiles.cost.inputs.RESTART_HOURS`)
reads it, and `resolve` / `plan` print `summary`. The figures are unsourced and labelled so
(`clouds.base.GROUP_RESTART_HOURS`, `MANUAL_RESTART_HOURS`).
"""

from __future__ import annotations

from clouds.base import GROUP_RESTART_HOURS, MANUAL_RESTART_HOURS, Healing, manual_healing
from clouds.registry import CLOUDS

__all__ = ["GROUP_RESTART_HOURS", "HEALING", "MANUAL_RESTART_HOURS", "Healing", "check_job", "healing"]

# registry name -> its cloud's answer, derived from the `Cloud` objects.
HEALING: dict[str, Healing] = {name: c.healing or manual_healing(c.display_name) for name, c in CLOUDS.items()}


def healing(provider: str) -> Healing:
    """The entry of `provider`; an unknown name gets the manual answer."""
    return HEALING.get(provider) or manual_healing(provider)


def check_job(provider: str, has_job: bool) -> None:
    """Refuse a `job:` where the cloud's component does not ship the node agent yet.

    Raises:
        ValueError: `job: not run on <provider> yet ...` with the fix.
    """
    if has_job and not healing(provider).runs_job:
        runs = ", ".join(name for name, h in HEALING.items() if h.runs_job)
        raise ValueError(
            f"job: the {provider} component does not run a job yet (the node agent ships on {runs}); "
            "remove job and start torchrun by hand, or choose one of those clouds"
        )
