"""What each cloud's cluster does when a node is lost: who replaces it, and how long it takes.

One entry per registered cloud (`clouds.registry.NAMES`). `restart_hours` is the time from a
spot interruption to the job running again on a full cluster; the spot estimate
(`profiles.cost.inputs.RESTART_HOURS`) reads it, and `resolve` / `plan` print `summary`.

Figures: no measured replace-and-rejoin time was collected for any cloud, so every figure is
unsourced and labelled so: [0.25 h] where a node group replaces the node (launch, boot,
bootstrap, rendezvous, checkpoint load); [2 h] where nobody does (a person notices and runs
`pulumi up`, then the job is restarted by hand).
"""

from __future__ import annotations

from dataclasses import dataclass

GROUP_RESTART_HOURS = 0.25  # unsourced, see module docstring
MANUAL_RESTART_HOURS = 2.0  # unsourced, see module docstring


@dataclass(frozen=True)
class Healing:
    """A cloud's answer to a lost node.

    Attributes:
        replaces_nodes: True when the cluster replaces a lost node by itself.
        runs_job: True when the component ships the node agent, so `job:` runs there.
        restart_hours: hours from an interruption to the job running again (unsourced).
        summary: one line for `resolve` notes and `plan`.
    """

    replaces_nodes: bool
    runs_job: bool
    restart_hours: float
    summary: str


def _manual(cloud: str) -> Healing:
    return Healing(
        False,
        False,
        MANUAL_RESTART_HOURS,
        f"nodes are not replaced automatically on {cloud}: after an interruption run `pulumi up` "
        f"and restart the job (manual restart, unsourced {MANUAL_RESTART_HOURS:g} h)",
    )


HEALING: dict[str, Healing] = {
    "aws": Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "nodes are an Auto Scaling group: a lost node is replaced and rejoins the job "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption)",
    ),
    "azure": Healing(
        True,
        False,
        GROUP_RESTART_HOURS,
        "the scale set restores evicted spot VMs and repairs unhealthy ones "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption); the job is restarted by hand",
    ),
    "gcp": Healing(
        True,
        False,
        GROUP_RESTART_HOURS,
        "GPU nodes are a managed instance group: a preempted spot VM is deleted and recreated "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption; TPU slices are not replaced); "
        "the job is restarted by hand",
    ),
    "huaweicloud": _manual("Huawei Cloud"),
    "volcengine": _manual("Volcengine"),
    "alicloud": _manual("Alibaba Cloud"),
    "tencentcloud": _manual("Tencent Cloud"),
    "baiducloud": _manual("Baidu AI Cloud"),
}


def healing(provider: str) -> Healing:
    """The entry of `provider`; an unknown name gets the manual answer."""
    return HEALING.get(provider) or _manual(provider)


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
