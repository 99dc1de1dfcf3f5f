"""TPU slices as queued resources: the `gcloud` command of each slice, from the cluster's own
service account, network and labels (why a command: `clouds.gcp.queued`)."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.machine import SCOPES
from clouds.gcp.queued import queued_resource_command
from clouds.gcp.tpu import TPU_METADATA, tpu_accelerator_type, tpu_runtime_version
from components.gcp.network import ClusterNetwork


def queued_resource_ids(name: str, nodes: int) -> list[str]:
    """Queued resource (and node) ids of the slices: `{name}-tpu-0` ... `{name}-tpu-{n-1}`."""
    return [f"{name}-tpu-{i}" for i in range(nodes)]


def queued_resource_commands(
    name: str,
    args: ClusterConfig,
    net: ClusterNetwork,
    account: gcp.serviceaccount.Account,
    labels: dict[str, str],
    project: pulumi.Input[str],
) -> pulumi.Output[list[str]]:
    """One `gcloud compute tpus queued-resources create` command per slice, in node order.

    Args:
        name: the cluster name (the slices' ids derive from it).
        args: the cluster config (`instance_type`, `zone`, `nodes`, `purchase`, `reservation`).
        net: the cluster networks (slices use the primary subnet, internal IPs only).
        account: the node service account the slices run as.
        labels: the cluster's labels.
        project: the project id.
    """
    accelerator_type = tpu_accelerator_type(args.instance_type)
    runtime = tpu_runtime_version(args.instance_type)

    def render(values: list) -> list[str]:
        project_id, network, subnet, email = values
        return [
            queued_resource_command(
                resource_id,
                args.zone,
                project_id,
                accelerator_type,
                runtime,
                network,
                subnet,
                email,
                SCOPES,
                labels,
                TPU_METADATA,
                args.purchase,
                reserved=args.reservation is not None,
            )
            for resource_id in queued_resource_ids(name, args.nodes)
        ]

    return pulumi.Output.all(project, net.network.name, net.subnet.name, account.email).apply(render)
