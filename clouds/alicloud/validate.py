"""Checks on a `ClusterConfig` before the Alibaba component creates anything.

Sources: shared/reference-facts/china-clouds.md sections 1.1 (families, types), 3 (eRDMA)
and 4 (CPFS tiers); the ESS group's size limit (`placement.GROUP_MAX_NODES`); tag
rules from the pulumi-alicloud 4.0.0 `ecs.Instance` `tags` doc (keys and values up to 128
characters, neither may begin with `aliyun`, `acs:`, `http://` or `https://`; `:` is
allowed, so the shared `trainstack:` keys need no sanitizing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from clouds.alicloud.cpfs import cpfs_sizing
from clouds.alicloud.facts import FAMILIES, TYPES, erdma_families, eri_interfaces, gpu_family
from clouds.alicloud.placement import check_nodes
from clouds.common import check_known_type, check_provider, check_ssh_cidrs, cluster_tags, reject_unsupported
from clouds.contract import ClusterConfig

PROVIDER = "alicloud"
TAG_MAX_CHARS = 128
TAG_RESERVED_PREFIXES = ("aliyun", "acs:", "http://", "https://")


def validate_args(args: ClusterConfig, name: str) -> None:
    """Reject configs the Alibaba component cannot build (contract: `clouds.base.Cloud.validator`); `name`
    is the cluster name, checked as the `trainstack:cluster` tag value it becomes."""
    check_provider(args, PROVIDER, "Alibaba Cloud")
    reject_unsupported(args, ("kms_key_id",), "Alibaba", "it encrypts system disks with the ECS service key")
    _check_instance_type(args)
    _check_zone(args)
    check_nodes(args.nodes, args.purchase)
    check_ssh_cidrs(args.ssh_cidrs)
    reject_unsupported(
        args, ("subnet_id", "capacity_reservation_id"), "Alibaba", "it creates its own VPC and pay-as-you-go nodes"
    )
    check_tags(cluster_tags(PROVIDER, name, args.tags))
    if args.file_system is not None:
        cpfs_sizing(args.file_system)


def _check_instance_type(args: ClusterConfig) -> None:
    form = f"ecs.<family>-..., family one of {', '.join(FAMILIES)}"
    family = check_known_type(args, gpu_family(args.instance_type), TYPES, "ECS GPU type", "section 1.1", form)
    if args.interconnect == "rdma" and eri_interfaces(args.instance_type) == 0:
        raise ValueError(
            f"interconnect: rdma needs eRDMA and {family.name} has none (section 1.1/3); "
            f"choose a family with eRDMA ({', '.join(erdma_families())}) or set interconnect: none"
        )


def _check_zone(args: ClusterConfig) -> None:
    if args.zone == args.region:
        raise ValueError(
            f"zone: the price catalog lists Alibaba prices per region, so this stack has no zone "
            f"yet; set zone to a zone id of {args.region} (<region>-<letter>) that sells "
            f"{args.instance_type}, as the Alibaba console lists them"
        )
    # Alibaba zone ids are the region id and one letter, with a dash in most regions
    # (cn-beijing-a) and without one in some (ap-southeast-1a), as the console lists them.
    if not re.fullmatch(re.escape(args.region) + "-?[a-z]", args.zone):
        raise ValueError(
            f"zone: '{args.zone}' is not a zone id of region {args.region}; use a zone id of that region "
            f"({args.region}-<letter>, e.g. {args.region}-a)"
        )


def check_tags(tags: Mapping[str, str]) -> None:
    """Reject tags Alibaba refuses (pulumi-alicloud `tags` doc).

    Raises:
        ValueError: `tags: ...` naming the key and the rule it breaks.
    """
    for key, value in tags.items():
        for text, what in ((key, "key"), (value, "value")):
            if what == "key" and not text:
                raise ValueError("tags: empty tag key; give every tag a key")
            if len(text) > TAG_MAX_CHARS:
                raise ValueError(f"tags: {what} of '{key}' is longer than {TAG_MAX_CHARS} characters; shorten it")
            if text.lower().startswith(TAG_RESERVED_PREFIXES):
                raise ValueError(
                    f"tags: {what} '{text}' starts with a prefix Alibaba reserves "
                    f"({', '.join(TAG_RESERVED_PREFIXES)}); rename it"
                )
