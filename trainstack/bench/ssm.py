"""AWS Systems Manager Run Command: send shell lines to every node of a stack, read their answers.

The nodes carry the SSM agent and the `AmazonSSMManagedInstanceCore` policy
(`components/aws/compute.py`) and the tag `trainstack:cluster=<cluster name>`
(`clouds.common.cluster_tags`), so `SendCommand` with the document `AWS-RunShellScript` and a
tag target reaches them without SSH. API: SendCommand, ListCommandInvocations (Details=True
carries each instance's output, at most 2,500 characters of it per the API reference) and
GetCommandInvocation (StandardOutputContent, at most 24,000 characters).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

DOCUMENT = "AWS-RunShellScript"
TAG_KEY = "trainstack:cluster"
DONE = {"Success", "Cancelled", "TimedOut", "Failed"}  # CommandInvocation Status values that end


class RemoteError(RuntimeError):
    """The command reached no node or failed on one; the message names the node and what it said."""


@dataclass(frozen=True)
class Invocation:
    """One node's run of a command: its instance id, status and the head of its output."""

    instance_id: str
    status: str
    output: str


def send(client, cluster_name: str, commands: list[str], comment: str, timeout_seconds: int) -> str:
    """Send `commands` to every instance tagged `trainstack:cluster=<cluster_name>`.

    Args:
        client: a boto3 `ssm` client in the stack's region.
        timeout_seconds: `executionTimeout` of the shell script on each node.

    Returns:
        The command id.
    """
    answer = client.send_command(
        DocumentName=DOCUMENT,
        Targets=[{"Key": f"tag:{TAG_KEY}", "Values": [cluster_name]}],
        Parameters={"commands": commands, "executionTimeout": [str(timeout_seconds)]},
        Comment=comment[:100],  # the API's limit
        TimeoutSeconds=600,  # the delivery deadline (the script's own is executionTimeout)
    )
    return answer["Command"]["CommandId"]


def invocations(client, command_id: str) -> list[Invocation]:
    """Every node's run of `command_id` so far."""
    pages = client.get_paginator("list_command_invocations").paginate(CommandId=command_id, Details=True)
    return [
        Invocation(row["InstanceId"], row["Status"], _output(row))
        for page in pages
        for row in page.get("CommandInvocations", [])
    ]


def _output(row: dict) -> str:
    return "".join(plugin.get("Output", "") for plugin in row.get("CommandPlugins", []))


def wait(
    client,
    command_id: str,
    deadline_seconds: float,
    pause: float = 10.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> list[Invocation]:
    """The node runs of `command_id` once every one has ended.

    Raises:
        RemoteError: no node was targeted, one did not succeed, or the deadline passed.
    """
    end = clock() + deadline_seconds
    while True:
        runs = invocations(client, command_id)
        if runs and all(r.status in DONE for r in runs):
            break
        if clock() >= end:
            waiting = ", ".join(r.instance_id for r in runs if r.status not in DONE) or "no node answered"
            raise RemoteError(f"command {command_id}: still running after {deadline_seconds:.0f} s ({waiting})")
        sleep(pause)
    failed = [r for r in runs if r.status != "Success"]
    if failed:
        first = failed[0]
        raise RemoteError(f"{first.instance_id}: {first.status}: {first.output.strip()[-300:] or 'no output'}")
    return runs


def full_output(client, command_id: str, instance_id: str) -> str:
    """One node's standard output of `command_id` (GetCommandInvocation: up to 24,000 characters)."""
    answer = client.get_command_invocation(CommandId=command_id, InstanceId=instance_id)
    return answer.get("StandardOutputContent", "")
