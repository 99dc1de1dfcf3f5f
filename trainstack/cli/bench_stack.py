"""Which stack and project a `trainstack bench ...` command works on: the `--project-dir`
option, the project found upwards, and the stack's validated cluster and config (errors a user
can fix print one line and exit 2, `trainstack.cli.usage_errors.fail`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from trainstack.cli.project import PROJECT_HELP
from trainstack.cli.usage_errors import fail


def project_option() -> Any:
    """The `--project-dir` option every bench command takes."""
    return typer.Option(None, "--project-dir", help=PROJECT_HELP)


def project_dir(given: Path | None = None) -> Path:
    """The project given, or found upwards from here (the CLI's own project discovery)."""
    from trainstack.cli.resolve_cmd import project_dir as found

    return found(given)


def project_or_none(given: Path | None = None) -> Path | None:
    """The project given or found upwards from here, or None outside one (published figures only)."""
    if given is not None:
        return project_dir(given)
    from trainstack.cli.project import ProjectError, find_project

    try:
        return find_project()
    except ProjectError:
        return None


def stack_cluster(stack: str, project: Path | None = None):
    """The stack's validated cluster config (one-line error when it cannot be read)."""
    from profiles.preflight.check import PreflightError, read_cluster, validation_finding
    from profiles.stack.writer import StackWriteError, stack_path

    try:
        path = stack_path(project_dir(project), stack)
        cluster = read_cluster(path)
    except (PreflightError, StackWriteError) as exc:
        fail(str(exc))
    refused = validation_finding(cluster, stack)  # what `plan` and `pulumi up` refuse: no kit for it
    if refused is not None:
        fail(f"{path}: {refused.detail}")
    return cluster


def stack_config(stack: str, project: Path | None = None) -> dict:
    """The stack file's `config:` (its `gcp:project`, for the GCP node runner); {} if unreadable."""
    from profiles.stack.writer import stack_path
    from trainstack.cli.status_cmd import stack_settings

    try:
        return stack_settings(stack_path(project_dir(project), stack).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def node_cluster(stack: str, project: Path | None = None):
    """`stack_cluster` for a command that reaches the stack's nodes (`bench run`, `bench fetch`),
    refused in one line where the kit cannot run: an accelerator that is not an NVIDIA GPU (a TPU
    slice, Trainium, ...; `trainstack/bench/kit_fit.py`), or a managed platform's stack
    (SageMaker, Azure ML, HyperPod, ...), since the kit's access (Auto Scaling groups, node
    agents, the file system at /fsx) is the VM stacks'."""
    from clouds.platform_lookup import find
    from trainstack.bench.kit_fit import kit_refusal

    cluster = stack_cluster(stack, project)
    refused = kit_refusal(stack, cluster.accelerator)
    if refused is not None:
        fail(refused)
    platform = find(cluster.provider, cluster.platform) if cluster.platform is not None else None
    if platform is not None:
        fail(
            f"bench: a managed platform's stack has no nodes trainstack reaches; stack {stack} runs on "
            f"{platform.display_name}: benchmark a VM stack of the same instance type (write it with "
            "`platform: vm`) and rank with its measurements, or run the kit's steps as a job on the platform"
        )
    return cluster


def write_results(output: Path, text: str) -> bool:
    """Write a results file's `text` to `output`, or to standard output when it is `-` (as
    `-` reads standard input wherever a file is read). Returns True when a file was written.

    Raises:
        typer.Exit: the file cannot be written (one line, exit 2).
    """
    if str(output) == "-":
        typer.echo(text)
        return False
    try:
        output.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"--output {output}: cannot write ({exc.strerror}); give a writable path")
    return True
