"""Compute children of the Volcengine cluster: the placement (an HPC cluster for hpc*
types), the admin key pair and the node image lookup (the nodes are the group of `nodes`).

Placement (china-clouds.md section 3, Terraform docs, official):
  * `hpc*` (RDMA) families join one `ecs.HpcCluster` in the nodes' zone via the scaling
    configuration's `hpc_cluster_id`: the RDMA-interconnected cluster that keeps them together.
  * Other families join nothing. The per-node instances of earlier versions joined an
    `ecs.DeploymentSet` (strategy `Availability`, a spread that keeps no nodes close), but the
    scaling configuration takes no deployment set (`scaling`).

Disks: neither pulumi_volcengine 0.0.47 (`ecs.Instance`, `autoscaling.ScalingConfiguration`
`volumes`: type, size, delete-with-instance only) nor pulumi_volcenginecc 0.0.64 exposes
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

# Public Ubuntu 22.04 images; Volcengine's public image names are unsourced, so the regex is
# loose and `instance_type_id` keeps only images that run on the type.
IMAGE_NAME_REGEX = r"^Ubuntu 22\.04"
# Admin key: RSA (`admin_key.RSA_4096`): whether Volcengine key pairs accept ED25519 is unsourced.


def create_placement(
    name: str, args: ClusterConfig, tags: list[dict[str, str]], opts: pulumi.ResourceOptions
) -> volcengine.ecs.HpcCluster | None:
    """The HPC cluster `{name}-hpc` for an HPC (RDMA) family, else None."""
    family = instance_family(args.instance_type)
    assert family is not None  # validate() rejects unknown families before any child is made
    if not family.hpc_cluster:
        return None
    return volcengine.ecs.HpcCluster(f"{name}-hpc", name=f"{name}-hpc", zone_id=args.zone, tags=tags, opts=opts)


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
