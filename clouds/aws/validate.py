"""Checks on a `ClusterConfig` before the AWS component creates anything."""

from __future__ import annotations

import re

from clouds.aws import CLOUD
from clouds.aws.bootstrap import user_data_problem
from clouds.aws.efa import NODE_SUBNET_CIDR, check_subnet_size, efa_interface_count
from clouds.aws.fsx import fsx_sizing
from clouds.aws.reservation import check_reservation
from clouds.common import check_provider, check_reservation_support, check_ssh_cidrs, reject_unsupported
from clouds.contract import ClusterConfig
from clouds.tag_rules import OWN_TAGS, TagRules, tag_problem

# The direction word of a region name -> its letters in the region's AZ IDs: us-east-1 has
# use1-az1..6, ap-southeast-2 apse2-az1..3 (AWS "AZ IDs" doc; the rule holds for every AWS
# region/zone pair in the catalog, which tests/components/aws/test_validate.py checks).
_DIRECTION_LETTERS = {
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "central": "c",
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
}

# AWS "Tag restrictions" (docs.aws.amazon.com/batch/latest/userguide/tag-restrictions.html).
_AWS_TEXT = re.compile(r"[\w .:/=+\-@]*")
TAG_RULES = TagRules(
    "AWS", 50, 128, 256, _AWS_TEXT, _AWS_TEXT, "letters, digits, spaces and + - = . _ : / @", ("aws:",), True
)


# With the job channel the head enables tags in instance metadata, whose keys allow only letters,
# digits and `+ - = . , _ : @` ("View tags for your EC2 instances using instance metadata":
# "Non-compliance will result in failed launches for new instances or an error for existing").
_IMDS_TAG_KEY = re.compile(r"[A-Za-z0-9+\-=.,_:@]+")
# The head's own tags besides the stack's: Name, trainstack's two and the channel's pieces.
HEAD_OWN_TAGS = 1


def imds_tag_problem(tags: dict[str, str], channel_tags: int) -> str | None:
    """Why the head node of a cluster with a job cannot carry `tags` with tags in its instance
    metadata (a key IMDS refuses, or more than 50 with the channel's `channel_tags`), or None."""
    for key in tags:
        if not _IMDS_TAG_KEY.fullmatch(key) or key in (".", "..", "_index"):
            return (
                f"tags: key {key!r} cannot be on the AWS head node, which reads the job from its tags in "
                "instance metadata (keys: letters, digits and + - = . , _ : @); rename it"
            )
    total = len(tags) + OWN_TAGS + HEAD_OWN_TAGS + channel_tags
    if total > TAG_RULES.max_tags:
        return (
            f"tags: the head node would carry {total} tags (the stack's {len(tags)}, trainstack's and the job's "
            f"{channel_tags} pieces); AWS allows {TAG_RULES.max_tags}: give fewer tags or a shorter job.env"
        )
    return None


def az_id_prefix(region: str) -> str | None:
    """`use1` for `us-east-1`: how the region's AZ IDs begin; None for names of another shape
    (e.g. `us-gov-west-1`), which are not checked."""
    parts = region.split("-")
    if len(parts) != 3 or parts[1] not in _DIRECTION_LETTERS or not parts[2].isdigit():
        return None
    return f"{parts[0]}{_DIRECTION_LETTERS[parts[1]]}{parts[2]}"


def check_zone(region: str, zone: str) -> None:
    """The zone must be an AZ ID (`use1-az4`) of `region`, not a zone name (`us-east-1a`).

    Raises:
        ValueError: one line naming `zone` and the fix.
    """
    prefix = az_id_prefix(region)
    if prefix is None or zone.startswith(f"{prefix}-az"):
        return
    if zone.startswith(region):
        raise ValueError(
            f"zone: '{zone}' is a zone name; trainstack places nodes by AZ ID, which names the same "
            f"zone in every account: write e.g. {prefix}-az1 (`aws ec2 describe-availability-zones "
            f"--region {region}` lists ZoneName and ZoneId)"
        )
    raise ValueError(
        f"zone: '{zone}' is not an AZ ID of region {region} (those begin {prefix}-az); "
        "set zone and region to the same place"
    )


def validate_args(args: ClusterConfig, name: str = "cluster") -> None:
    """Reject configs the AWS component cannot build (the contract: `clouds.base.Cloud.validator`); AWS has no
    name rule of its own; `name` is the job's id in the bootstrap, whose size EC2 limits."""
    check_provider(args, "aws", "AWS")
    reject_unsupported(args, ("kms_key_id",), "AWS", "it encrypts EBS and FSx for Lustre with AWS-managed keys")
    check_zone(args.region, args.zone)
    check_ssh_cidrs(args.ssh_cidrs)
    if problem := tag_problem(TAG_RULES, args.tags):
        raise ValueError(problem)
    if args.interconnect == "rdma" and efa_interface_count(args.instance_type) == 0:
        raise ValueError(
            f"interconnect: rdma needs EFA and {args.instance_type} has none; "
            "choose an EFA type (e.g. p4d.24xlarge, p5.48xlarge) or set interconnect: none"
        )
    check_reservation_support(args, CLOUD.display_name, CLOUD.reservation_kinds, placement_group=True, group_arn=True)
    check_reservation(args.reservation, args.region, args.commitment)
    if args.file_system is not None:
        fs = args.file_system
        fsx_sizing(fs.capacity_gib, fs.throughput_mbps_per_tib, fs.deployment_type)
    if not args.subnet_id:  # an existing subnet is checked once its lookup answers (network.py)
        check_subnet_size(NODE_SUBNET_CIDR, args.nodes, args.instance_type, args.interconnect, "nodes")
    too_big = user_data_problem(args, name)
    if too_big:
        raise ValueError(too_big)
    if args.job is not None:
        from clouds.aws.bootstrap import channel_tags
        from clouds.job_bootstrap import channel_text

        if problem := imds_tag_problem(args.tags, len(channel_tags(channel_text(name, args)))):
            raise ValueError(problem)
