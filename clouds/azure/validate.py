"""Checks on a `ClusterConfig` before the Azure component creates anything.

Sources: Z8-Z12 in shared/reference-facts/interconnect.md (InfiniBand sizes, placement-group
size); M1 in storage.md (AMLFS SKUs); the capacity-reservation limits ("Spot VMs ... aren't
supported", "Proximity Placement Group" not supported) come from MicrosoftDocs azure-docs
articles/virtual-machines/capacity-reservation-overview.md, "Limitations and Restrictions"
(not yet in shared/reference-facts).
"""

from __future__ import annotations

import re

from clouds.azure.amlfs import amlfs_sizing, deployment_type_problem
from clouds.azure.bootstrap import custom_data_problem
from clouds.azure.facts import (
    MAX_SINGLE_PLACEMENT_GROUP_VMS,
    infiniband_size,
    rdma_size_names,
)
from clouds.azure.zones import zone_problem
from clouds.common import check_provider, check_ssh_cidrs, reject_unsupported
from clouds.contract import ClusterConfig
from clouds.tag_rules import TagRules, tag_problem

# Azure tag limitations (learn.microsoft.com/azure/azure-resource-manager/management/tag-resources).
TAG_RULES = TagRules(
    "Azure",
    50,
    128,
    256,
    re.compile(r"[^<>%&\\?/\x00-\x1f]*"),
    re.compile(r"[^\x00-\x1f]*"),
    "any characters but < > % & \\ ? / in a name",
    ("microsoft", "azure", "windows"),
)


def validate_args(args: ClusterConfig, name: str = "cluster") -> None:
    """Reject configs the Azure component cannot build (the contract: `clouds.base.Cloud.validator`); Azure has no
    name rule of its own; `name` is the job's id in the custom data, whose size Azure limits."""
    check_provider(args, "azure", "Azure")
    reject_unsupported(
        args, ("kms_key_id",), "Azure", "it encrypts disks and Managed Lustre with platform-managed keys"
    )
    zone = zone_problem(args.region, args.zone)
    if zone:
        raise ValueError(zone)
    _check_interconnect(args)
    _check_node_count(args)
    check_ssh_cidrs(args.ssh_cidrs)
    if problem := tag_problem(TAG_RULES, args.tags):
        raise ValueError(problem)
    if args.capacity_reservation_id:
        raise ValueError(
            "capacity_reservation_id: Azure capacity reservations support neither proximity "
            "placement groups nor Spot VMs (capacity-reservation-overview, Limitations), and "
            "this component always places nodes in a proximity placement group; remove "
            "capacity_reservation_id"
        )
    if args.file_system is not None:
        if args.subnet_id:
            raise ValueError(
                "subnet_id: Azure Managed Lustre needs a subnet of its own, which this "
                "component creates only inside its own virtual network; remove subnet_id "
                "or file_system"
            )
        amlfs_sizing(args.file_system.capacity_gib, args.file_system.throughput_mbps_per_tib)
        if problem := deployment_type_problem(
            args.file_system.deployment_type, args.file_system.throughput_mbps_per_tib
        ):
            raise ValueError(problem)
    too_big = custom_data_problem(args, name)
    if too_big:
        raise ValueError(too_big)


def _check_interconnect(args: ClusterConfig) -> None:
    if args.interconnect == "rdma" and infiniband_size(args.instance_type) is None:
        raise ValueError(
            f"interconnect: rdma needs InfiniBand and instance_type {args.instance_type} has "
            f"none; choose an InfiniBand size ({', '.join(rdma_size_names())}) "
            "or set interconnect: none"
        )


def _check_node_count(args: ClusterConfig) -> None:
    limit = MAX_SINGLE_PLACEMENT_GROUP_VMS
    if args.nodes <= limit:
        return
    if args.interconnect == "rdma":
        raise ValueError(
            f"nodes: {args.nodes} exceeds {limit}; InfiniBand connects only the VMs of one "
            f"scale set placement group, which holds at most {limit} VMs; set "
            f"nodes: {limit} or fewer, or split the job into several clusters of at most "
            f"{limit} nodes"
        )
    raise ValueError(
        f"nodes: {args.nodes} exceeds {limit}; the cluster is one single-placement-group "
        f"scale set, which holds at most {limit} VMs; set nodes: {limit} or fewer"
    )
