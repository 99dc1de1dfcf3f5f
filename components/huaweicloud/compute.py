"""Compute children of the Huawei Cloud cluster: the ECS server group, the admin key pair,
the node image lookup and the nodes.

Placement (china-clouds.md section 3, from the Terraform/Pulumi `compute_servergroup` docs,
official): an ECS server group accepts only the `anti-affinity` policy ("Only *anti-affinity*
policies are supported", pulumi_huaweicloud `ecs.Servergroup`). Anti-affinity spreads the
members over different physical hosts; nothing on plain ECS keeps GPU nodes close (no
affinity or cluster policy exists). The group is still created, and every node joins it via
`scheduler_hints=[{group: id}]`: it is the only placement construct ECS offers, it keeps one
host failure from taking out two nodes, and it is what `placement_group` reports. The
maximum number of members of an anti-affinity group is unsourced: a large cluster may be
refused by the API.

Disks (pulumi_huaweicloud 0.0.12 `ecs.Instance`): the system disk is encrypted only with an
explicit KMS key id (`system_disk_kms_key_id`, "the ID of a KMS key used to encrypt the
system disk"); there is no flag that picks a cloud-managed default key. Huawei's service key
`evs/default` is created only after the account authorizes EVS to use KMS, and its id differs
per account (EVS API "EnableEncryptionByDefault" / "ShowDefaultKmsKeyId"), so no key can be
assumed. The stack sets the key with `kms_key_id` in `trainstack:cluster`
(`ClusterConfig.kms_key_id`), which encrypts the system disks and SFS Turbo (`storage`);
without it the system disk is **unencrypted** and the policy rule `disks-encrypted` reports
it as n/a.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_huaweicloud as huaweicloud
import pulumi_tls as tls

from clouds.contract import ClusterConfig
from components.admin_key import RSA_4096, admin_public_key
from components.huaweicloud.purchase import charging_args

SERVER_GROUP_POLICY = "anti-affinity"  # the only accepted policy (section 3)
# Choices, not sourced figures: GPSSD is the SDK's default system-disk type; 200 GiB leaves
# room for containers and staged checkpoints (the SDK accepts 1-1024).
SYSTEM_DISK_TYPE = "GPSSD"
SYSTEM_DISK_GIB = 200
# Public Ubuntu 22.04 image. Huawei's public image names follow "Ubuntu 18.04 server 64bit"
# (pulumi_huaweicloud `ims.get_image` example); the 22.04 name is unsourced. `flavor_id`
# restricts the lookup to images that run on the flavor.
IMAGE_NAME_REGEX = r"^Ubuntu 22\.04 server 64bit"
# Admin key: RSA (`admin_key.RSA_4096`): Huawei KPS accepts OpenSSH public keys; whether it
# takes ED25519 is unsourced.


def create_server_group(name: str, opts: pulumi.ResourceOptions) -> huaweicloud.ecs.Servergroup:
    """The anti-affinity server group `{name}-group` (takes no tags)."""
    return huaweicloud.ecs.Servergroup(f"{name}-group", policies=[SERVER_GROUP_POLICY], opts=opts)


def create_key_pair(
    name: str, args: ClusterConfig, opts: pulumi.ResourceOptions
) -> tuple[huaweicloud.ecs.Keypair, tls.PrivateKey | None]:
    """Import the admin public key: `args.ssh_public_key`, or a generated RSA key.

    A generated private key lives only in the Pulumi state (the TLS provider marks it
    secret); Huawei's own key generation would write it to a local file instead
    (`ecs.Keypair.key_file`), so it is never used.

    Returns:
        The key pair `{name}-keypair` and the generated key (None when a key was given).
    """
    public_key, generated = admin_public_key(name, args, opts, RSA_4096)
    return huaweicloud.ecs.Keypair(f"{name}-keypair", public_key=public_key, opts=opts), generated


def node_image_id(args: ClusterConfig, opts: pulumi.ResourceOptions) -> pulumi.Output[str]:
    """The newest public Ubuntu 22.04 image that runs on `args.instance_type`."""
    image = huaweicloud.ims.get_image_output(
        name_regex=IMAGE_NAME_REGEX,
        visibility="public",
        most_recent=True,
        flavor_id=args.instance_type,
        opts=pulumi.InvokeOptions(parent=opts.parent),
    )
    return image.id


def node_args(
    args: ClusterConfig, placement: dict[str, pulumi.Input[str]], tags: dict[str, str]
) -> dict[str, pulumi.Input[Any]]:
    """The `ecs.Instance` arguments every node gets (also what `scaling` maps the AS
    configuration from).

    Args:
        args: the cluster config (`instance_type`, `zone`, `purchase`, and `kms_key_id`,
            which encrypts the system disks when set).
        placement: `subnet_id`, `security_group_id`, `server_group_id`, `key_pair`,
            `image_id` (strings or outputs).
        tags: tags for every node.
    """
    disk: dict[str, Any] = {"system_disk_type": SYSTEM_DISK_TYPE, "system_disk_size": SYSTEM_DISK_GIB}
    if args.kms_key_id:
        disk["system_disk_kms_key_id"] = args.kms_key_id
    return {
        "flavor_id": args.instance_type,
        "image_id": placement["image_id"],
        "availability_zone": args.zone,
        "networks": [{"uuid": placement["subnet_id"]}],
        "security_group_ids": [placement["security_group_id"]],
        "key_pair": placement["key_pair"],
        "scheduler_hints": [{"group": placement["server_group_id"]}],
        **disk,
        **charging_args(args.purchase),
        "tags": tags,
    }


def create_nodes(
    name: str,
    args: ClusterConfig,
    placement: dict[str, pulumi.Input[str]],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> list[huaweicloud.ecs.Instance]:
    """Create `args.nodes` ECS instances `{name}-node-0` ... in the server group (`node_args`).

    Nodes get no EIP. `image_id` changes are ignored: a newer public image must not replace
    running training nodes; replaced or added nodes pick up the image current at that time.
    """
    keep_image = pulumi.ResourceOptions(ignore_changes=["image_id"])
    node_opts = pulumi.ResourceOptions.merge(opts, keep_image)
    instance = node_args(args, placement, tags)
    return [huaweicloud.ecs.Instance(f"{name}-node-{index}", **instance, opts=node_opts) for index in range(args.nodes)]
