"""What `run` and `status` say about a stack with no `job:`: advice that works on that stack.

Where a job can be added (a VM stack whose nodes run the node agent, a platform `run` submits
to), the line says how: the `job:` block in the workload the stack was written from (its header,
`profiles.stack.writer`) and the `resolve` that writes it into the stack. Where it cannot (a
cloud whose nodes run no node agent, `clouds.healing.job_problem`: the China clouds' VMs, GCP
TPU slices), the line says so, never a command that would be refused or a unit the nodes lack.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

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


def typed_from_here(workload: str, project: Path | None) -> str:
    """The header's workload (`profiles.stack.writer`: a path relative to the project) as it is
    typed from the working directory, so the `resolve` a line suggests finds it from a
    subfolder or with `--project-dir` too; as written without a project or for `-`."""
    if project is None or workload == "-":
        return workload
    try:
        return os.path.relpath(project / workload, Path.cwd())
    except ValueError:  # another drive (Windows): the full path
        return str(project / workload)


def project_flag(project: Path | None) -> str:
    """` --project-dir PATH` when the working directory is outside `project` (where `resolve
    --write-stack` would not find it by looking upwards, `trainstack.cli.project`), else ""."""
    if project is None:
        return ""
    here, root = Path.cwd().resolve(), project.resolve()
    if here == root or root in here.parents:
        return ""
    try:
        return f" --project-dir {shlex.quote(os.path.relpath(root, here))}"
    except ValueError:
        return f" --project-dir {shlex.quote(str(root))}"


def no_job_line(cluster: ClusterConfig, stack: str, stack_text: str, project: Path | None = None) -> str:
    """One line (no field prefix) for a stack without `job:`: how to add one, or why none can
    run there.

    Args:
        cluster: the stack's cluster.
        stack: its name.
        stack_text: the stack file's text (its header names the workload).
        project: the project folder (holds `stacks/`): the workload is named from the working
            directory; None names it as the header does (relative to the project).
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
    if workload == "-":  # written from standard input: no file to name
        return (
            f"stack {stack} has no job to run; add job: {{command: train.py ...}}{needs} to the workload it was "
            f"written from (read from standard input) and rerun `trainstack resolve WORKLOAD --write-stack {stack}"
            f"{project_flag(project)}`"
        )
    workload = typed_from_here(workload, project)
    return (
        f"stack {stack} has no job to run; add job: {{command: train.py ...}}{needs} to {workload} and rerun "
        f"`trainstack resolve {shlex.quote(workload)} --write-stack {stack}{project_flag(project)}`"
    )
