"""The shared SFS Turbo (HPC) file system of the cluster: a stateful, protected child."""

from __future__ import annotations

import pulumi
import pulumi_huaweicloud as huaweicloud

from clouds.contract import FileSystemConfig
from clouds.huaweicloud.sfs import SHARE_TYPE, turbo_sizing
from components.cluster_base import protected

SHARE_PROTO = "NFS"  # the only value `share_proto` accepts (pulumi_huaweicloud `sfs.Turbo`)


def create_file_system(
    name: str,
    config: FileSystemConfig,
    zone: str,
    vpc_id: pulumi.Input[str],
    subnet_id: pulumi.Input[str],
    security_group_id: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    kms_key_id: str | None = None,
) -> huaweicloud.sfs.Turbo:
    """Create an HPC SFS Turbo file system, protected from deletion.

    Its name and inputs depend only on the cluster name, zone, network, its own security
    group, the file-system config and the KMS key, never on node count, flavor or purchase
    option, so changing those never replaces it. It is pay-per-use (`charging_mode` default
    postPaid). With `kms_key_id` (the stack's `ClusterConfig.kms_key_id`) it is encrypted
    with that key (`crypt_key_id`); without it the file system is unencrypted: `crypt_key_id`
    is the only encryption input of `sfs.Turbo`. `crypt_key_id` is ForceNew, so adding or
    changing the key later would replace the file system, which `protect=True` refuses.

    Args:
        name: the cluster name; the file system is `{name}-sfs`.
        config: capacity (GiB, rounded up to 1.2 TiB steps) and throughput (MB/s per TiB,
            picks `hpc_bandwidth`); see `sfs.turbo_sizing`.
        zone: the availability zone of the nodes.
        vpc_id: the cluster VPC.
        subnet_id: the node subnet's network id.
        security_group_id: the file system's own group (`{name}-sfs-sg`).
        tags: tags for the file system.
        opts: child options; `protect=True` is added here.
        kms_key_id: KMS key id to encrypt the file system with, or None for none.
    """
    sizing = turbo_sizing(config.capacity_gib, config.throughput_mbps_per_tib)
    extra = {"crypt_key_id": kms_key_id} if kms_key_id else {}
    return huaweicloud.sfs.Turbo(
        f"{name}-sfs",
        share_type=SHARE_TYPE,
        share_proto=SHARE_PROTO,
        hpc_bandwidth=sizing.hpc_bandwidth,
        size=sizing.size_gib,
        availability_zone=zone,
        vpc_id=vpc_id,
        subnet_id=subnet_id,
        security_group_id=security_group_id,
        tags=tags,
        **extra,
        opts=protected(opts),
    )


def split_export_location(location: str | None) -> tuple[str | None, str | None]:
    """Split SFS Turbo's `export_location` ("the mount point", sfs_turbo.md) into host and path.

    The `host:/path` shape is the NFS convention (`mount -t nfs host:/path dir`); that SFS
    Turbo reports exactly this shape is an assumption, not in the provider docs. Without a
    `:` the whole value is the host and the path is `/`.

    Returns:
        `(host, path)`, or `(None, None)` for no location.
    """
    if not location:
        return None, None
    host, sep, path = location.partition(":")
    return host, (path or "/") if sep else "/"
