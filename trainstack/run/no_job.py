"""What `run` and `status` say about a stack with no `job:`: advice that works on that stack.

Where a job can be added (a VM stack whose nodes run the node agent, a platform `run` submits
to), the line says how: the `job:` block in the workload the stack was written from (its header,
`profiles.stack.writer`) and the `resolve` that writes it into the stack. Where it cannot (a
cloud whose nodes run no node agent, `clouds.healing.job_problem`: the China clouds' VMs, GCP
TPU slices), the line says so, never a command that would be refused or a unit the nodes lack.
"""

from __future__ import annotations

from clouds.contract import ClusterConfig
from profiles.stack.document import workload_of


def cannot_run_reason(cluster: ClusterConfig) -> str | None:
    """Why the stack's own VMs cannot run a trainstack job (no node agent there), or None."""
    from clouds.healing import job_problem

    if cluster.platform is not None:
        return None
    problem = job_problem(cluster.provider, cluster.instance_type)
    return problem.removeprefix("job: ").split("; remove job")[0] if problem else None


def submitting_platforms(provider: str) -> list[str]:
    """`platform: NAME (its display name)` of each platform on `provider` whose jobs `run` submits."""
    from clouds.registry import CLOUDS

    found = CLOUDS[provider].platforms.values() if provider in CLOUDS else ()
    return [f"platform: {p.name} ({p.display_name})" for p in found if p.submit]


def no_job_line(cluster: ClusterConfig, stack: str, stack_text: str) -> str:
    """One line (no field prefix) for a stack without `job:`: how to add one, or why none can
    run there.

    Args:
        cluster: the stack's cluster.
        stack: its name.
        stack_text: the stack file's text (its header names the workload).
    """
    if reason := cannot_run_reason(cluster):
        others = submitting_platforms(cluster.provider)
        alternative = f", or set {' or '.join(others)} in the workload: `run` submits its jobs" if others else ""
        return (
            f"stack {stack} has no job, and trainstack cannot start one on its nodes: {reason}; "
            f"start training on them by hand{alternative}"
        )
    needs = " (docs/platforms.md: what its job needs)" if cluster.platform is not None else ""
    workload = workload_of(stack_text)
    if workload is None:  # a stack written by hand: the job goes in the file itself
        return f"stack {stack} has no job to run; add job: {{command: train.py ...}}{needs} under trainstack:cluster"
    return (
        f"stack {stack} has no job to run; add job: {{command: train.py ...}}{needs} to {workload} and rerun "
        f"`trainstack resolve {workload} --write-stack {stack}`"
    )
