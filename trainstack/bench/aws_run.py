"""The AWS node runner (`trainstack.bench.node_run`): Systems Manager Run Command
(`trainstack.bench.aws_ssm`) on the stack's running instances."""

from __future__ import annotations

from typing import Any

from trainstack.bench.aws_ssm import DOCUMENT, send, stack_instances, wait
from trainstack.bench.node_run import Invocation


class AwsRunner:
    """Run Command on the stack's instances (`trainstack.bench.node_run.NodeRunner`): sent to all
    of them by the cluster tag (a node that boots meanwhile gets it too), or to a few by id.
    A command runs for up to its `executionTimeout`, so a benchmark is not detached."""

    detaches = False

    def __init__(self, cluster: Any, stack: str, settings: dict, clients: tuple[Any, Any] | None = None) -> None:
        """Args: clients: (ssm, ec2) boto3 clients; default: new ones in the cluster's region."""
        if clients is None:
            import boto3

            clients = boto3.client("ssm", region_name=cluster.region), boto3.client("ec2", region_name=cluster.region)
        self.stack, (self.ssm, self.ec2) = stack, clients
        self._running: list[str] | None = None

    def nodes(self) -> list[str]:
        """The running instances tagged with the cluster's name (EC2 DescribeInstances)."""
        self._running = stack_instances(self.ec2, self.stack)
        return self._running

    def send(self, nodes: list[str], commands: list[str], comment: str, timeout_seconds: int) -> tuple[str, list[str]]:
        """(command id, nodes): by the tag when `nodes` is every running node `nodes()` found."""
        if nodes and nodes == self._running:
            return send(self.ssm, self.stack, commands, comment, timeout_seconds), nodes
        answer = self.ssm.send_command(
            DocumentName=DOCUMENT,
            InstanceIds=nodes,
            Parameters={"commands": commands, "executionTimeout": [str(timeout_seconds)]},
            Comment=comment[:100],
        )
        return answer["Command"]["CommandId"], nodes

    def wait(self, handle: tuple[str, list[str]], deadline_seconds: float, pause: float = 10.0) -> list[Invocation]:
        """The runs of the command on its nodes (`wait`)."""
        command_id, nodes = handle
        return wait(self.ssm, command_id, nodes, deadline_seconds, pause=pause)

    def named(self, handle: tuple[str, list[str]]) -> str:
        """`SSM command <id>`."""
        return f"SSM command {handle[0]}"


Runner = AwsRunner
