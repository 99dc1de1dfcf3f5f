"""The shared FSx for Lustre file system of the AWS cluster (a stateful, protected child)."""

from __future__ import annotations

import pulumi
import pulumi_aws as aws

from clouds.aws.fsx import create_time_settings, fsx_sizing
from clouds.contract import FileSystemConfig
from components.cluster_base import protected


def create_file_system(
    name: str,
    config: FileSystemConfig,
    subnet_id: pulumi.Input[str],
    security_group_id: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    efa_clients: bool = False,
) -> aws.fsx.LustreFileSystem:
    """Create an SSD FSx for Lustre file system, protected against deletion.

    Its name and inputs depend only on the cluster name, the network and the file-system
    config, never on node count, instance type or purchase option, so changing those never
    replaces it. Data is encrypted at rest with the AWS-managed FSx key (the service
    default when `kms_key_id` is unset). Lustre 2.15, the metadata configuration and EFA
    are chosen at creation (`fsx.create_time_settings`); the engine keeps a deployed file
    system's values of them (`ignore_changes`), so a file system created by an older
    trainstack is never replaced to gain them.

    Args:
        name: the cluster name; the file system is `{name}-fsx`.
        config: requested capacity (GiB, rounded up per F1), throughput (MB/s per TiB, F1/F2)
            and deployment type.
        subnet_id: the one subnet of the file system.
        security_group_id: the cluster security group (Lustre TCP 988, 1018-1023).
        tags: tags for the file system.
        opts: child options; `protect=True` is added here.
        efa_clients: True when the nodes reach the file system over EFA with GPUDirect RDMA.

    Raises:
        ValueError: for a throughput the deployment type does not offer.
    """
    sizing = fsx_sizing(config.capacity_gib, config.throughput_mbps_per_tib, config.deployment_type)
    return aws.fsx.LustreFileSystem(
        f"{name}-fsx",
        storage_type="SSD",
        deployment_type=sizing.deployment_type,
        storage_capacity=sizing.storage_capacity_gib,
        per_unit_storage_throughput=sizing.per_unit_storage_throughput,
        subnet_ids=subnet_id,  # a single string in pulumi-aws v7 (FSx takes one subnet)
        security_group_ids=[security_group_id],
        tags=tags,
        **create_time_settings(sizing.deployment_type, efa_clients),  # type: ignore[arg-type]
        opts=protected(opts, ignore_changes=CREATE_TIME),
    )


# Inputs fixed at creation that newer trainstack releases set differently (see above).
CREATE_TIME = ["fileSystemTypeVersion", "metadataConfiguration", "efaEnabled"]
