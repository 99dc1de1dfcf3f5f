"""What a managed platform's job launcher can run of a workload's `job:`, pure (no SDK).

SageMaker's PyTorch estimator, an Azure ML command job with PyTorch distribution, and the other
platforms' launchers start one training script from the job's code (unpacked or mounted by the
platform) on every instance, with one process per GPU; they mount no cluster file system and do
not run elastic jobs. So the resolver leaves out managed rows whose job they cannot run (the
`job` constraint) and `trainstack run` refuses such a stack, with the same one line naming the
field (`job_problem`).
"""

from __future__ import annotations

import shlex
from typing import Any

# Platforms whose nodes trainstack gives a command of its own, so any `job.launcher` runs there
# (`trainstack.run.launch`); the others start the processes with their own PyTorch launcher.
# Keys: the platform's word and the name its submitter uses.
ANY_LAUNCHER = frozenset({"pai", "pai-dlc", "ti-one"})


def job_problem(platform: str, job: Any, nodes: int) -> str | None:
    """Why `platform`'s launcher cannot run `job` (a `clouds.contract.JobConfig`) on `nodes`
    instances, one line naming the field and the fix; None when it can."""
    launcher = getattr(job, "launcher", None)
    if launcher not in (None, "torchrun") and platform.lower() not in ANY_LAUNCHER:
        return (
            f"job.launcher: {platform} starts the job's processes with its own PyTorch launcher, not {launcher}; "
            "remove launcher, or pick a platform that runs it (PAI-DLC, TI-ONE, or the cloud's VMs)"
        )
    if job.script is not None:
        return (
            f"job.script: {platform} runs a training script from the job's code, not a script on the cluster's "
            "file system; write job.command: 'train.py ARGS' instead"
        )
    if job.module:
        return f"job.module: {platform} launches a script, not a module; remove module and name the script"
    words = shlex.split(job.command or "")
    if words and words[0].startswith("/"):
        return (
            f"job.command: {words[0]} is a path on the cluster's file system, which {platform} jobs do not mount; "
            f"write the script's path relative to the job's code folder (e.g. {words[0].rsplit('/', 1)[-1]})"
        )
    if job.min_nodes is not None and job.min_nodes < nodes:
        return f"job.min_nodes: a {platform} job runs on all its instances; remove min_nodes"
    return None


def script_and_args(job: Any) -> tuple[str, list[str]]:
    """The job's script (relative to its code folder) and its arguments (`job_problem` first)."""
    words = shlex.split(job.command or "")
    return words[0], words[1:]
