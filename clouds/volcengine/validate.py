"""Checks on a `ClusterConfig` (and the cluster name) before the Volcengine component
creates anything. Every message is one line naming the field and the fix.

Sources: china-clouds.md sections 1.4 (families, RDMA), 3 (HPC cluster, deployment set),
4 (vePFS store types). Name rules (pulumi_volcenginecc docs, official): deployment-set,
HPC-cluster and vePFS names start with a letter and hold letters, digits, `_` and `-`
(1-128 characters); the cluster name is kept to 40 so every derived child name fits.
Region ids are `<geo>-<city>` with an optional `-<number>` (`cn-beijing`, `ap-southeast-1`, the
shape `profiles.catalog.fetchers.volcengine.REGION_NAME` checks) and zone ids the region id,
`-` and one letter (`cn-beijing-a`, stacks/Pulumi.training-a10-volcengine.yaml).
"""

from __future__ import annotations

import re

from clouds.common import (
    check_cluster_name,
    check_group_size,
    check_provider,
    check_ssh_cidrs,
    check_zone_in_region,
    reject_unsupported,
)
from clouds.contract import ClusterConfig
from clouds.volcengine.facts import family_names, instance_family
from clouds.volcengine.tags import check_tags
from clouds.volcengine.vepfs import vepfs_sizing

# min/max_instance_number "Value range: 0 ~ 100" (pulumi_volcengine 0.0.47 autoscaling.ScalingGroup).
GROUP_MAX_NODES = 100
_REGION = re.compile(r"^[a-z]{2}-[a-z]+(-\d+)?$")


def validate_args(args: ClusterConfig, name: str) -> None:
    """Reject configs the Volcengine component cannot build (the contract: `clouds.base.Cloud.validator`);
    `name` is the cluster name every child name derives from."""
    check_provider(args, "volcengine", "Volcengine")
    reject_unsupported(args, ("kms_key_id",), "Volcengine", "its SDKs have no volume or vePFS encryption input")
    check_cluster_name(name, "Volcengine resource name rules")
    # cn-beijing-a is sourced; numbered regions (ap-southeast-1) may write cn-style or
    # ap-southeast-1a ids (unsourced), so both forms pass.
    check_zone_in_region(args, "Volcengine", _REGION, "cn-beijing", separator="-", also=("",))
    _check_instance_type(args)
    check_group_size(args.nodes, GROUP_MAX_NODES, "a Volcengine scaling group")
    check_ssh_cidrs(args.ssh_cidrs)
    reject_unsupported(args, ("capacity_reservation_id",), "Volcengine", "it cannot launch into a capacity reservation")
    if args.file_system is not None:
        vepfs_sizing(args.file_system)
    check_tags(args.tags)


def _check_instance_type(args: ClusterConfig) -> None:
    family = instance_family(args.instance_type)
    if family is None:
        raise ValueError(
            f"instance_type: {args.instance_type} is not a known Volcengine GPU type "
            f"ecs.<family>.<size>; families: {', '.join(family_names())} "
            "(e.g. ecs.hpcpni2.28xlarge)"
        )
    if family.accelerators is not None and args.accelerator not in family.accelerators:
        raise ValueError(
            f"accelerator: {args.accelerator} does not match family {family.family} "
            f"({family.note}); set accelerator: {family.accelerators[0]} or pick another type"
        )
    if args.interconnect == "rdma" and not family.rdma:
        raise ValueError(
            f"interconnect: rdma needs an RDMA family and {args.instance_type} has none; "
            f"choose ecs.{'/'.join(family_names(rdma_only=True))}"
            ".<size> or set interconnect: none"
        )
