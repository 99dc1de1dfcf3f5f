"""Compute children of the Volcengine cluster: the placement (HPC cluster or deployment
set), the admin key pair, the node image lookup and the nodes.

Placement (china-clouds.md section 3, Terraform docs, official):
  * `hpc*` (RDMA) families join one `ecs.HpcCluster` in the nodes' zone via
    `hpc_cluster_id`: the RDMA-interconnected cluster that keeps those nodes together.
  * Other families join an `ecs.DeploymentSet`. Its only strategy is `Availability` (spread)
    with granularity `switch`, `host` or `rack` (default host); none keeps nodes close.
    `host` is the mildest spread (nodes only avoid sharing a physical server) and leaves
    the network path between nodes unconstrained. The member limit of a deployment set is
    unsourced. A node is never put in both: whether Volcengine accepts an HPC instance in
    a spread deployment set is unsourced, and the spread would fight the HPC cluster.

Disks: neither pulumi_volcengine 0.0.47 (`ecs.Instance`: `system_volume_type`/`_size`,
`data_volumes` without any encryption or KMS field) nor pulumi_volcenginecc 0.0.64 exposes
volume encryption, so the system volume is created **unencrypted** (stated in the README;
the policy rule `disks-encrypted` reports it as n/a).
"""

from __future__ import annotations

import pulumi
import pulumi_tls as tls
import pulumi_volcengine as volcengine

from clouds.contract import ClusterConfig
from clouds.volcengine.facts import instance_family
from components.admin_key import RSA_4096, admin_public_key
from components.volcengine.purchase import spot_args

DEPLOYMENT_STRATEGY = "Availability"  # the only strategy (section 3)
DEPLOYMENT_GRANULARITY = "host"
# Choices, not sourced figures: ESSD_PL0 system volume of 200 GiB (the SDK accepts 20-2048).
SYSTEM_VOLUME_TYPE = "ESSD_PL0"
SYSTEM_VOLUME_GIB = 200
# Public Ubuntu 22.04 images; Volcengine's public image names are unsourced, so the regex is
# loose and `instance_type_id` keeps only images that run on the type.
IMAGE_NAME_REGEX = r"^Ubuntu 22\.04"
# Admin key: RSA (`admin_key.RSA_4096`): whether Volcengine key pairs accept ED25519 is unsourced.
JOIN_ARGUMENTS = ("hpc_cluster_id", "deployment_set_id")


def create_placement(
    name: str, args: ClusterConfig, tags: list[dict[str, str]], opts: pulumi.ResourceOptions
) -> tuple[volcengine.ecs.HpcCluster | volcengine.ecs.DeploymentSet, str]:
    """The HPC cluster `{name}-hpc` (RDMA families) or deployment set `{name}-dps`.

    Returns:
        The resource and the `ecs.Instance` argument that joins it (`hpc_cluster_id` or
        `deployment_set_id`). Deployment sets take no tags.
    """
    family = instance_family(args.instance_type)
    assert family is not None  # validate() rejects unknown families before any child is made
    if family.hpc_cluster:
        cluster = volcengine.ecs.HpcCluster(f"{name}-hpc", name=f"{name}-hpc", zone_id=args.zone, tags=tags, opts=opts)
        return cluster, "hpc_cluster_id"
    deployment_set = volcengine.ecs.DeploymentSet(
        f"{name}-dps",
        deployment_set_name=f"{name}-dps",
        strategy=DEPLOYMENT_STRATEGY,
        granularity=DEPLOYMENT_GRANULARITY,
        opts=opts,
    )
    return deployment_set, "deployment_set_id"


def create_key_pair(
    name: str, args: ClusterConfig, tags: list[dict[str, str]], opts: pulumi.ResourceOptions
) -> tuple[volcengine.ecs.KeyPair, tls.PrivateKey | None]:
    """Import the admin public key: `args.ssh_public_key`, or a generated RSA key.

    A generated private key lives only in the Pulumi state; Volcengine's own generation
    would write it to a local `key_file`, so it is never used.

    Returns:
        The key pair `{name}-keypair` and the generated key (None when a key was given).
    """
    public_key, generated = admin_public_key(name, args, opts, RSA_4096)
    key_pair = volcengine.ecs.KeyPair(
        f"{name}-keypair",
        key_pair_name=f"{name}-keypair",
        public_key=public_key,
        tags=tags,
        opts=opts,
    )
    return key_pair, generated


def node_image_id(args: ClusterConfig, opts: pulumi.ResourceOptions) -> pulumi.Output[str]:
    """The newest public Ubuntu 22.04 image that runs on `args.instance_type`."""
    found = volcengine.ecs.get_images_output(
        name_regex=IMAGE_NAME_REGEX,
        os_type="Linux",
        visibility="public",
        instance_type_id=args.instance_type,
        opts=pulumi.InvokeOptions(parent=opts.parent),
    )
    return found.images.apply(lambda images: _newest(images, args.instance_type))


def _newest(images: list, instance_type: str) -> str:
    if not images:
        raise ValueError(f"instance_type: no public Ubuntu 22.04 image runs on {instance_type} in this region")
    return max(images, key=lambda image: (image.created_at or "", image.image_id)).image_id


def create_nodes(
    name: str,
    args: ClusterConfig,
    placement: dict[str, pulumi.Input[str]],
    tags: list[dict[str, str]],
    opts: pulumi.ResourceOptions,
) -> list[volcengine.ecs.Instance]:
    """Create `args.nodes` instances `{name}-node-0` ... in the placement.

    Nodes get no EIP. `image_id` changes are ignored so a newer public image never replaces
    running training nodes.

    Args:
        name: the cluster name.
        args: the cluster config (`instance_type`, `zone`, `nodes`, `purchase`).
        placement: `subnet_id`, `security_group_id`, `key_pair_name`, `image_id`, and one
            of `hpc_cluster_id` / `deployment_set_id`.
        tags: tags for every node.
        opts: child options.
    """
    keep_image = pulumi.ResourceOptions(ignore_changes=["image_id"])
    node_opts = pulumi.ResourceOptions.merge(opts, keep_image)
    joins = {key: placement[key] for key in JOIN_ARGUMENTS if key in placement}
    return [
        volcengine.ecs.Instance(
            f"{name}-node-{index}",
            instance_name=f"{name}-node-{index}",
            instance_type=args.instance_type,
            image_id=placement["image_id"],
            zone_id=args.zone,
            subnet_id=placement["subnet_id"],
            security_group_ids=[placement["security_group_id"]],
            key_pair_name=placement["key_pair_name"],
            system_volume_type=SYSTEM_VOLUME_TYPE,
            system_volume_size=SYSTEM_VOLUME_GIB,
            **joins,
            **spot_args(args.purchase),
            tags=tags,
            opts=node_opts,
        )
        for index in range(args.nodes)
    ]
