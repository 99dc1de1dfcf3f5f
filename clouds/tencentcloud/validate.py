"""Checks on a `ClusterConfig` before the Tencent component creates anything.

Sources: shared/reference-facts/china-clouds.md sections 1.2 (families, types, HCC), 3
(HPC cluster for HCC) and 4 (CFS Turbo sizes). Tag rules from Tencent Cloud Tag "Use
Limits" (tencentcloud.com/document/product/651/13354; not in shared/reference-facts): at
most 50 tags per resource; keys 1-127 and values 1-255 characters; keys starting with
`qcs:`, `project:` or `项目` are reserved; letters, digits, spaces (not leading or
trailing) and `+ - = . _ : / @ ( ) [ ] , ; > <` are allowed. `:` is allowed, so the shared
`trainstack:` keys need no sanitizing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from clouds.common import (
    check_group_size,
    check_known_type,
    check_provider,
    check_ssh_cidrs,
    cluster_tags,
    reject_unsupported,
)
from clouds.contract import ClusterConfig
from clouds.tencentcloud.facts import FAMILIES, TYPES, gpu_family, hcc_families
from clouds.tencentcloud.group import GROUP_MAX_NODES, check_group_names, per_node_reason
from clouds.tencentcloud.purchase import check_spot_max_price
from clouds.tencentcloud.turbo import turbo_sizing

PROVIDER = "tencentcloud"
MAX_TAGS = 50
TAG_KEY_MAX, TAG_VALUE_MAX = 127, 255
TAG_RESERVED_PREFIXES = ("qcs:", "project:", "项目")
_TAG_CHARS = re.compile(r"[\w +\-=._:/@()\[\],;><【】（）]+")


def validate_args(args: ClusterConfig, name: str, spot_max_price: str | None = None) -> None:
    """Reject configs the Tencent component cannot build (contract: `clouds.base.Cloud.validator`); `name`
    is the cluster name, checked as the `trainstack:cluster` tag value it becomes, and
    `spot_max_price` the spot bid passed to the component (see `purchase`)."""
    check_provider(args, PROVIDER, "Tencent Cloud")
    reject_unsupported(args, ("kms_key_id",), "Tencent", "it encrypts data disks with the default cloud-disk CMK")
    _check_instance_type(args)
    if args.zone == args.region:
        raise ValueError(
            f"zone: the price catalog lists Tencent prices per region, so this stack has no zone yet; set zone "
            f"to a zone of {args.region} ({args.region}-<number>) that sells {args.instance_type}, as the Tencent "
            "console lists them"
        )
    if not re.fullmatch(re.escape(args.region) + r"-\d{1,2}", args.zone):  # ap-beijing-6, as the console lists
        raise ValueError(
            f"zone: '{args.zone}' is not a zone of region {args.region}; Tencent zones are {args.region}-<number>: "
            f"use a zone such as {args.region}-6"
        )
    check_spot_max_price(args.purchase, spot_max_price)
    if per_node_reason(args.instance_type, args.purchase) is None:
        check_group_size(args.nodes, GROUP_MAX_NODES, "a Tencent Auto Scaling group")
        check_group_names(name)
    check_ssh_cidrs(args.ssh_cidrs)
    reject_unsupported(
        args,
        ("subnet_id", "capacity_reservation_id"),
        "Tencent",
        "it creates its own VPC and pay-as-you-go or spot nodes",
    )
    check_tags(cluster_tags(PROVIDER, name, args.tags))
    if args.file_system is not None:
        turbo_sizing(args.file_system)


def _check_instance_type(args: ClusterConfig) -> None:
    form = f"<family>.<size>, family one of {', '.join(FAMILIES)}"
    family = check_known_type(args, gpu_family(args.instance_type), TYPES, "Tencent GPU type", "section 1.2", form)
    if args.interconnect == "rdma" and not family.hcc:
        raise ValueError(
            f"interconnect: rdma needs an HCC type and {family.name} has no RDMA (section "
            f"1.2); choose {', '.join(hcc_families())} or set interconnect: none"
        )


def check_tags(tags: Mapping[str, str]) -> None:
    """Reject tags Tencent refuses (Tag "Use Limits").

    Raises:
        ValueError: `tags: ...` naming the key and the rule it breaks.
    """
    if len(tags) > MAX_TAGS:
        raise ValueError(f"tags: {len(tags)} tags exceed Tencent's {MAX_TAGS} per resource; drop some")
    for key, value in tags.items():
        if key.lower().startswith(TAG_RESERVED_PREFIXES):
            raise ValueError(
                f"tags: key '{key}' starts with a prefix Tencent reserves "
                f"({', '.join(TAG_RESERVED_PREFIXES)}); rename it"
            )
        for text, what, limit in ((key, "key", TAG_KEY_MAX), (value, "value", TAG_VALUE_MAX)):
            if not 1 <= len(text) <= limit:
                raise ValueError(f"tags: {what} of '{key}' must be 1-{limit} characters; fix it")
            if text != text.strip() or not _TAG_CHARS.fullmatch(text):
                raise ValueError(
                    f"tags: {what} of '{key}' has a character Tencent does not allow or a "
                    "leading/trailing space; use letters, digits, spaces and + - = . _ : / @"
                )
