"""The `job:` values that reach a node's systemd unit, job file or shell, checked as text.

Every job field is written into each node's bootstrap (`components/job_bootstrap.py`): the
head's unit line `ExecStart=<python> -m nodeagent store ...` (`nodeagent/ship.py`), the job
file the launcher reads, and the environment torchrun runs with (`nodeagent/launcher.py`). A
newline or other control character in any of them ends the unit line and adds directives of
its own; a space in `python` makes its first word the program and the rest its arguments; an
environment name outside POSIX's portable form (`[A-Za-z_][A-Za-z0-9_]*`, IEEE Std 1003.1,
"Environment Variables") cannot be exported by a shell. So each is refused in one line naming
the field and the fix, before any file is written. A value of only spaces is refused too:
`command: "   "` would start torchrun with no script on every node.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A job on the cloud's VMs keeps its checkpoints and logs on the cluster's file system (a
# managed platform keeps them in its own storage): the spec, the stack and, with
# `platform: any`, each VM row are refused with this line.
NO_FILE_SYSTEM = "job: needs a file_system for its checkpoints and logs; add file_system or remove job"
# A name that says its value is a credential (WANDB_API_KEY, HF_TOKEN, AWS_SECRET_ACCESS_KEY,
# DB_PASSWORD, ...); one naming where a credential is (`..._FILE`, `..._PATH`) is not one.
_CREDENTIAL = re.compile(
    r"(?:^|_)(?:API_?KEY|ACCESS_KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY|AUTH)(?:_|$)|(?:^|_)KEY$",
    re.IGNORECASE,
)
_POINTER = re.compile(r"_(?:FILE|PATH|DIR|URL|ENDPOINT|REGION|ID)$", re.IGNORECASE)
# An interpreter as a unit's ExecStart takes it: one word of path characters (a name on PATH,
# such as python3, or an absolute path such as /fsx/venv/bin/python).
_PROGRAM = re.compile(r"[A-Za-z0-9_./+-]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# The fields a job may leave out (None: the default); the others are needed once given.
_OPTIONAL = ("workdir", "checkpoint_dir", "code", "image")
_EXAMPLES = {
    "command": "command: /fsx/code/train.py --config /fsx/code/cfg.yaml",
    "script": "script: /fsx/code/run.sh",
    "workdir": "workdir: /fsx/code",
    "checkpoint_dir": "checkpoint_dir: /fsx/checkpoints",
    "python": "python: /fsx/venv/bin/python",
    "code": "code: obs://team-code/train/",
    "image": "image: Ascend-Powered-Engine:VERSION",
}


def _control_problem(field: str, value: str, example: str) -> str | None:
    found = _CONTROL.search(value)
    if found is None:
        return None
    what = "a newline" if found.group() in "\n\r" else f"a control character ({found.group()!r})"
    return (
        f"job.{field}: {value!r} has {what}, which would end the line the node's unit and job file "
        f"write it on; give it on one line, e.g. {example}"
    )


def _blank_problem(field: str, value: str, example: str) -> str | None:
    if value.strip():
        return None
    leave = ", or leave it out" if field in _OPTIONAL else ""
    return f"job.{field}: {value!r} is blank (only spaces); write the value, e.g. {example}{leave}"


def _words_problem(command: str) -> str | None:
    """Why `command` cannot be split into shell words (an unclosed quote), or None."""
    try:
        shlex.split(command)
    except ValueError as exc:
        return (
            f"job.command: {command!r} cannot be split into words ({str(exc).lower()}); close the quote, "
            "or quote the argument whole, e.g. command: \"/fsx/code/train.py --name 'my run'\""
        )
    return None


def job_field_problem(job: Any) -> str | None:
    """Why one of `job`'s text values cannot be written into a node's unit, job file or
    environment (one line naming the field and the fix), or None.

    Args:
        job: a `clouds.contract.JobConfig` (its command, script, workdir, checkpoint_dir,
            python and env).
    """
    for field, example in _EXAMPLES.items():
        value = getattr(job, field)
        if value is not None and (
            problem := _control_problem(field, value, example) or _blank_problem(field, value, example)
        ):
            return problem
    if job.command is not None and (problem := _words_problem(job.command)):
        return problem
    if job.python is not None and not _PROGRAM.fullmatch(job.python):
        return (
            f"job.python: {job.python!r} is not one program path; give the interpreter with torch as one word "
            "without spaces or shell characters, e.g. python: /fsx/venv/bin/python (or python3)"
        )
    for name, value in job.env.items():
        if not ENV_NAME.fullmatch(name):
            return (
                f"job.env: {name!r} is not an environment variable name; use letters, digits and '_', "
                "not starting with a digit, e.g. NCCL_DEBUG"
            )
        if not isinstance(value, str):  # a secret reference (`clouds.job_secrets`): no value here
            continue
        if problem := _control_problem(f"env.{name}", value, f'{name}: "one line"'):
            return problem
        if _CREDENTIAL.search(name) and not _POINTER.search(name) and value.strip():
            return credential_problem(name)
    return None


def credential_problem(name: str) -> str:
    """Why `name`'s plain value is refused (one line with the fix): job.env is written in clear
    text into the stack file, the nodes' user data (which `ec2:DescribeLaunchTemplateVersions`
    and the other clouds' describe calls return) and the job file on every node."""
    return (
        f"job.env.{name}: looks like a credential, and plain job.env values are written into the stack file "
        f"and every node's user data; give it as a secret: {name}: {{secret: KEY}} after pulumi config set "
        "--secret --path 'trainstack:secrets.KEY' VALUE, or {store: ID} for a secret already in your cloud's store"
    )


def job_size_problem(job: Any, nodes: int, gpus: int | None, max_nodes: int | None = None) -> str | None:
    """Why `job`'s node and process counts do not fit the cluster (one line with the fix), or None.

    Args:
        job: a `JobConfig`, or None.
        nodes: the cluster's (or workload's) node count; with `max_nodes`, a range's low end.
        gpus: accelerators per node; None when not known yet (the resolver checks each offering).
        max_nodes: a workload's range's high end (`nodes: 2-16`, `auto`), or None for exactly
            `nodes`: `min_nodes` is then checked against each node count the resolver costs.
    """
    if job is None:
        return None
    most = max(nodes, max_nodes or nodes)
    if job.min_nodes is not None and job.min_nodes > most:
        what = f"nodes ({nodes})" if most == nodes else f"the largest node count of nodes: {nodes}-{most}"
        return (
            f"job.min_nodes: {job.min_nodes} is more than {what}; give at most {most}, "
            "or leave it out to wait for every node"
        )
    if job.nproc_per_node is not None and gpus is not None and job.nproc_per_node > gpus:
        return (
            f"job.nproc_per_node: {job.nproc_per_node} is more than the {gpus} GPUs per node asked for; "
            f"give at most {gpus} (one process per GPU), or leave it out"
        )
    return None
