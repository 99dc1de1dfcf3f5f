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
# Platforms whose launcher hands the command's arguments to the script as hyperparameters
# (SageMaker's estimator, ModelArts' `parameters`), which come back only as `--key value`.
HYPERPARAMETERS = frozenset({"sagemaker", "modelarts"})
# Platforms that run the job's code from their cloud's object store (`job.code`), by scheme,
# and need the job's image or engine named (`job.image`; trainstack guesses no versions).
CODE_STORE = {"modelarts": "obs", "pai": "oss", "pai-dlc": "oss", "ti-one": "cos"}
IMAGE_WORDS = {
    "modelarts": "preset engine as NAME:VERSION (e.g. the region's Ascend-Powered-Engine)",
    "pai": "container image (an official PAI PyTorch image or your own)",
    "pai-dlc": "container image (an official PAI PyTorch image or your own)",
    "ti-one": "PyTorch environment (e.g. torch1.9-py3.8-cuda11.1-gpu)",
}


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
    key = platform.lower()
    if key in HYPERPARAMETERS and (problem := hyperparameter_problem(words[1:])):
        return problem
    if key in CODE_STORE:
        return code_problem(getattr(job, "code", None), CODE_STORE[key], platform) or (
            None if getattr(job, "image", None) else image_problem(platform, IMAGE_WORDS[key])
        )
    return None


def stack_job_problem(cluster: Any) -> str | None:
    """Why the managed platform of `cluster` (a `clouds.contract.ClusterConfig`) cannot run its
    job, or None: `job_problem`, the rule the resolver leaves such rows out with and `trainstack
    run` refuses with, checked by `plan`, `check` and `--write-stack` for a platform `run`
    submits to (`Platform.submit`)."""
    from clouds.platform_lookup import find

    platform = find(cluster.provider, cluster.platform) if cluster.platform and cluster.job else None
    if platform is None or not platform.submit:
        return None
    return job_problem(cluster.platform, cluster.job, cluster.nodes)


def hyperparameter_problem(args: list[str], field: str = "job.command") -> str | None:
    """Why `args` cannot be passed as hyperparameters (`--key value` or `--key=value` pairs
    only: a short flag such as `-v` or a positional word has no key), or None."""
    items = iter(args)
    for word in items:
        if not word.startswith("--") or len(word) < 3:
            return (
                f"{field}: '{word}' is not --key value; the platform passes arguments as --key value pairs "
                "(write it as --key value, or read it from the script's defaults)"
            )
        if "=" not in word:
            next(items, None)
    return None


def code_problem(code: str | None, scheme: str, platform: str) -> str | None:
    """Why `code` (`job.code`) is not a `scheme://BUCKET/PATH/` folder `platform` reads, or None."""
    head = f"{scheme}://"
    if not code:
        return (
            f"job.code: {platform} runs the job's code from {head}; upload the code folder there and set "
            f"job.code: {head}BUCKET/PATH/ (checkpoints go to trainstack/<cluster>/checkpoints/ in that bucket)"
        )
    if not code.startswith(head) or not code.removeprefix(head).partition("/")[0]:
        return f"job.code: {code} is not a {head}BUCKET/PATH/ folder; {platform} reads it from its own store"
    return None


def image_problem(platform: str, what: str) -> str:
    """The line for a job without `job.image` on a platform that needs it named (`what`)."""
    return f"job.image: {platform} needs the job's {what}; set job.image (see docs/platforms.md)"


def script_and_args(job: Any) -> tuple[str, list[str]]:
    """The job's script (relative to its code folder) and its arguments (`job_problem` first)."""
    words = shlex.split(job.command or "")
    return words[0], words[1:]
