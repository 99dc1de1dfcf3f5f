"""AWS Systems Manager Run Command: send shell lines to every node of a stack, read their answers.

The nodes carry the SSM agent and the `AmazonSSMManagedInstanceCore` policy
(`components/aws/compute.py`) and the tag `trainstack:cluster=<cluster name>`
(`clouds.common.cluster_tags`), so `SendCommand` with the document `AWS-RunShellScript` and a
tag target reaches them without SSH. The instances to wait for come from EC2
DescribeInstances (the same tag, running); each one's status and output from
GetCommandInvocation (StandardOutputContent holds at most 24,000 characters, per the API
reference: the fetch output is a few KB).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from trainstack.bench.node_run import Invocation, RemoteError

PROVIDER = "aws"  # the cloud whose remote-run service this is
DOCUMENT = "AWS-RunShellScript"
TAG_KEY = "trainstack:cluster"
DONE = {"Success", "Cancelled", "TimedOut", "Failed"}  # CommandInvocation Status values that end


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


def stack_instances(ec2, cluster_name: str) -> list[str]:
    """The running instances tagged `trainstack:cluster=<cluster_name>` (EC2 DescribeInstances)."""
    filters = [
        {"Name": f"tag:{TAG_KEY}", "Values": [cluster_name]},
        {"Name": "instance-state-name", "Values": ["running"]},
    ]
    pages = ec2.get_paginator("describe_instances").paginate(Filters=filters)
    return sorted(i["InstanceId"] for page in pages for r in page["Reservations"] for i in r["Instances"])


def invocation(client, command_id: str, instance_id: str) -> Invocation:
    """One node's run of `command_id` (GetCommandInvocation); `Pending` until the node has it."""
    from botocore.exceptions import ClientError

    try:
        answer = client.get_command_invocation(CommandId=command_id, InstanceId=instance_id)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "InvocationDoesNotExist":
            return Invocation(instance_id, "Pending", "")
        raise
    output = "\n".join(answer.get(k, "") for k in ("StandardOutputContent", "StandardErrorContent"))
    return Invocation(instance_id, answer["Status"], output)


def wait(
    client,
    command_id: str,
    instance_ids: list[str],
    deadline_seconds: float,
    pause: float = 10.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> list[Invocation]:
    """The runs of `command_id` on `instance_ids` (`stack_instances`) once every one has ended.

    Raises:
        RemoteError: no instance, one did not succeed, or the deadline passed.
    """
    if not instance_ids:
        raise RemoteError(f"command {command_id}: no running instance is tagged {TAG_KEY}; is the stack up?")
    end = clock() + deadline_seconds
    while True:
        runs = [invocation(client, command_id, i) for i in instance_ids]
        if all(r.status in DONE for r in runs):
            break
        if clock() >= end:
            waiting = ", ".join(r.instance_id for r in runs if r.status not in DONE)
            raise RemoteError(f"command {command_id}: still running after {deadline_seconds:.0f} s ({waiting})")
        sleep(pause)
    failed = [r for r in runs if r.status != "Success"]
    if failed:
        first = failed[0]
        raise RemoteError(f"{first.instance_id}: {first.status}: {first.output.strip()[-300:] or 'no output'}")
    return runs
