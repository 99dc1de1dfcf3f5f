"""TPU slices requested as queued resources: the `gcloud` command for each, with the cluster's
service account, labels, metadata, network and purchase.

Why a command and not a resource: pulumi-gcp's `tpu.V2QueuedResource` (checked in the
installed pulumi-gcp 10.2: `tpu.node_specs[].node` takes only `runtime_version`,
`accelerator_type`, `description` and `network_config`) cannot carry the node's service
account, labels, metadata, scheduling (spot, reserved) or scopes. A slice made through it
would run as the project's default compute service account, unlabelled, and could not
consume a reservation. `gcloud compute tpus queued-resources create` takes all of them
(Google Cloud SDK reference: `--service-account`, `--scopes`, `--labels`, `--metadata`,
`--network`, `--subnetwork`, `--internal-ips`, `--reserved`, `--spot`, `--node-id`,
`--accelerator-type`, `--runtime-version`); with `queued_resource: true` the GCP component
creates the network, service account and file system, and exports one such command per
slice (`queued_resource_commands`) for the user to run after `pulumi up`. The slices then
live outside the Pulumi stack: delete them with `gcloud compute tpus queued-resources
delete ID --zone ZONE --force` before `pulumi destroy` (the network cannot be deleted while
they use it).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence


def queued_resource_command(
    resource_id: str,
    zone: str,
    project: str,
    accelerator_type: str,
    runtime_version: str,
    network: str,
    subnetwork: str,
    service_account: str,
    scopes: Sequence[str],
    labels: Mapping[str, str],
    metadata: Mapping[str, str],
    purchase: str,
    reserved: bool,
) -> str:
    """One `gcloud compute tpus queued-resources create` command, shell-quoted.

    The queued resource and its one node share `resource_id` (the name the V2Vm would have).

    Args:
        resource_id: queued resource id and node id (`train-tpu-0`).
        zone: the slice's zone (`us-central1-a`).
        project: project id.
        accelerator_type: TPU API type (`v5p-8`).
        runtime_version: TPU software version (`v2-alpha-tpuv5`).
        network: VPC network name; subnetwork: its subnet name (internal IPs only).
        service_account: the node service account's email.
        scopes: OAuth scopes of the service account.
        labels: the cluster's labels; metadata: the node's metadata.
        purchase: `spot` requests spot capacity; `on-demand` on-demand or reserved.
        reserved: consume the project's matching TPU reservation in the zone (`--reserved`,
            as the V2Vm's `scheduling_config.reserved`).

    Raises:
        ValueError: `reserved` with `purchase: spot` (a reservation holds on-demand capacity).
    """
    if reserved and purchase == "spot":
        raise ValueError("reservation: a reservation holds on-demand capacity, never spot; set purchase: on-demand")
    words = [
        "gcloud",
        "compute",
        "tpus",
        "queued-resources",
        "create",
        resource_id,
        f"--zone={zone}",
        f"--project={project}",
        f"--node-id={resource_id}",
        f"--accelerator-type={accelerator_type}",
        f"--runtime-version={runtime_version}",
        f"--network={network}",
        f"--subnetwork={subnetwork}",
        "--internal-ips",
        f"--service-account={service_account}",
        f"--scopes={','.join(scopes)}",
    ]
    if labels:
        words.append("--labels=" + ",".join(f"{k}={v}" for k, v in sorted(labels.items())))
    if metadata:
        words.append("--metadata=" + ",".join(f"{k}={v}" for k, v in sorted(metadata.items())))
    if purchase == "spot":
        words.append("--spot")
    elif reserved:
        words.append("--reserved")
    return shlex.join(words)
