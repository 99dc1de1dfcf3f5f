"""Checks on a `ClusterConfig` (and the cluster name) before the Huawei Cloud component
creates anything. Every message is one line naming the field and the fix.

Sources: shared/reference-facts/china-clouds.md sections 1.3 (flavors), 3 (no RDMA, no
proximity placement), 4 (SFS Turbo tiers and sizes), 5.3 (what pulumi_huaweicloud models).
Name rules: ECS names hold 1-64 letters, digits, `_`, `-`, `.`; SFS Turbo names 4-64
characters starting with a letter (pulumi_huaweicloud `ecs.Instance`/`sfs.Turbo` docs).
Region ids are `<geo>-<area>-<number>` (`cn-north-4`, the official SDK's `EcsRegion` ids, the
shape `profiles.catalog.fetchers.huaweicloud_flavors.REGION_NAME` checks) and zone ids the
region id plus one letter (`cn-north-4a`, stacks/Pulumi.training-a100-huaweicloud.yaml).
Pulumi appends an 8-character suffix to autonamed children, so the cluster name is kept to
40 characters.
"""

from __future__ import annotations

import re

from clouds.common import check_cluster_name, check_provider, check_ssh_cidrs, check_zone_in_region, reject_unsupported
from clouds.common import check_group_size as check_as_group_size
from clouds.contract import ClusterConfig, FileSystemConfig
from clouds.huaweicloud.facts import (
    FLAVOR_ACCELERATOR_COUNTS,
    MODELARTS_ONLY_ACCELERATORS,
    RDMA_FAMILIES,
    FlavorFamily,
    family_names,
    flavor_family,
    is_modelarts_flavor,
)
from clouds.huaweicloud.group import GROUP_MAX_NODES, per_node_reason
from clouds.huaweicloud.sfs import SHARE_TYPE, turbo_sizing
from clouds.huaweicloud.tags import check_tags

_REGION = re.compile(r"^[a-z]{2}-[a-z]+-\d+$")


def validate_args(args: ClusterConfig, name: str) -> None:
    """Reject configs the Huawei Cloud component cannot build (the contract: `clouds.base.Cloud.validator`);
    `name` is the cluster name every child name derives from."""
    check_provider(args, "huaweicloud", "Huawei Cloud")
    check_cluster_name(name, "Huawei SFS Turbo and ECS name rules")
    check_zone_in_region(args, "Huawei Cloud", _REGION, "cn-north-4", separator="")
    family = _checked_flavor(args).family
    if args.interconnect == "rdma" and family not in RDMA_FAMILIES:
        raise ValueError(
            f"interconnect: rdma is not available on Huawei ECS flavor {args.instance_type}: no "
            "ECS GPU flavor has a sourced RDMA/RoCE fabric; "
            "set interconnect: none"
        )
    if per_node_reason(args.instance_type, args.purchase, args.kms_key_id) is None:
        check_as_group_size(args.nodes, GROUP_MAX_NODES, "a Huawei AS group")
    check_ssh_cidrs(args.ssh_cidrs)
    reject_unsupported(
        args, ("capacity_reservation_id",), "Huawei Cloud", "it cannot launch into a capacity reservation"
    )
    if args.file_system is not None:
        _check_file_system(args.file_system)
    check_tags(args.tags)


def _check_file_system(fs: FileSystemConfig) -> None:
    kind = fs.deployment_type
    if kind is not None and kind != SHARE_TYPE:
        raise ValueError(
            f"file_system.deployment_type: '{kind}' is not what this component builds on Huawei "
            f"Cloud (SFS Turbo share type {SHARE_TYPE}); remove it or set {SHARE_TYPE}"
        )
    turbo_sizing(fs.capacity_gib, fs.throughput_mbps_per_tib)


def _checked_flavor(args: ClusterConfig) -> FlavorFamily:
    """The flavor's family, once it is known to be an ECS flavor matching the accelerator."""
    if args.accelerator in MODELARTS_ONLY_ACCELERATORS or is_modelarts_flavor(args.instance_type):
        raise ValueError(
            f"instance_type: {args.instance_type} ({args.accelerator}) exists on Huawei Cloud only "
            "as a ModelArts resource pool, which pulumi_huaweicloud "
            "0.0.12 does not model; choose an ECS flavor of "
            f"{', '.join(family_names())} or create the pool outside trainstack"
        )
    family = flavor_family(args.instance_type)
    if family is None:
        raise ValueError(
            f"instance_type: {args.instance_type} is not a known Huawei ECS accelerator flavor "
            f"family; use one of {', '.join(family_names())} (e.g. p3.16xlarge.8)"
        )
    if args.accelerator not in family.accelerators:
        raise ValueError(
            f"accelerator: {args.accelerator} does not match flavor family {family.family} "
            f"({family.note}); set accelerator: {family.accelerators[0]} or pick another flavor"
        )
    expected = FLAVOR_ACCELERATOR_COUNTS.get(args.instance_type.strip().lower())
    if expected is not None and args.accelerator_count != expected:
        raise ValueError(
            f"accelerator_count: {args.accelerator_count} does not match {args.instance_type}, "
            f"which has {expected}; set accelerator_count: {expected}"
        )
    return family
