"""Workload keys that must agree with each other before anything is resolved (#16).

Called by `profiles.spec.rules.check_workload`, so both readers of a spec (the fast reader and
the pydantic models) refuse the same workloads with the same one-line message:

- `data:` links the team's bucket through the file system, which is sized from `data.size`
  unless a `file_system` is given: with neither, no cloud could link it.
- A job that may run on spot, or on a cloud whose group replaces a failed node (every cloud
  that runs a `job:`), must keep its checkpoints on the shared file system (`clouds.job_paths`):
  a replaced node has neither the old one's `/scratch` nor its disk.
- `work.params` and `model.params` describe one model: two sizes would price one and check the
  memory of another.
"""

from __future__ import annotations

from typing import Any

from clouds.job_paths import checkpoint_problem

_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k"))


def count_text(number: float) -> str:
    """`13B`, `6.7B`, `350M`, `1.28M`: a count as a workload writes it."""
    for unit, suffix in _SUFFIXES:
        if number >= unit:
            return f"{number / unit:.4g}{suffix}"
    return f"{number:g}"


def _job_clouds_heal(spec: Any) -> bool:
    """Whether a cloud the workload allows runs the job on nodes its group replaces by itself
    (`clouds.healing`: every cloud that runs a `job:` today), so its checkpoints must outlive a node."""
    from clouds.healing import HEALING

    allowed = spec.providers or tuple(HEALING)
    return any(HEALING[p].runs_job and HEALING[p].replaces_nodes for p in allowed if p in HEALING)


def _flex_start_problem(spec: Any) -> str | None:
    """Why `purchase: flex-start` cannot be bought on the workload's `providers` (none of them
    sells flex-start: `Cloud.flex_start`), or None."""
    from clouds.registry import CLOUDS

    if spec.purchase != "flex-start" or not spec.providers:
        return None
    sellers = [name for name, cloud in CLOUDS.items() if cloud.flex_start is not None]
    if any(p in sellers for p in spec.providers):
        return None
    return (
        f"purchase: flex-start is sold only on {', '.join(sellers)} (Dynamic Workload Scheduler), not on "
        f"{', '.join(spec.providers)}; add {sellers[0]} to providers, or set purchase: on-demand, spot or any"
    )


def check_together(spec: Any) -> None:
    """The workload's `data`, `file_system`, `job`, `purchase`, `work` and `model` agree.

    Args:
        spec: the read workload (plain values or the pydantic model: the same attributes).

    Raises:
        ValueError: one line naming the first key that does not fit and the fix.
    """
    if problem := _flex_start_problem(spec):
        raise ValueError(problem)
    if spec.data is not None and spec.file_system is None and spec.data.size_gib is None:
        raise ValueError(
            "data.size: needed to size the file system the bucket is linked through (data + checkpoints "
            "+ headroom); add it, e.g. size: 2TiB, or give a file_system: {capacity: 4800GiB}"
        )
    problem = checkpoint_problem(
        spec.job, spec.purchase != "on-demand", spec.job is not None and _job_clouds_heal(spec)
    )
    if problem:
        raise ValueError(problem)
    work_params = spec.work.params if spec.work else None
    model_params = spec.model.params if spec.model else None
    if work_params and model_params and work_params != model_params:
        raise ValueError(
            f"model.params: {count_text(model_params)} but work.params is {count_text(work_params)}; "
            "they describe one model (work prices it, model checks its memory): give the same size in both"
        )
