"""Checks on a cluster name and `ClusterConfig` before the GCP component creates anything."""

from __future__ import annotations

import re

from clouds.common import check_provider, check_reservation_support, check_ssh_cidrs, reject_unsupported
from clouds.contract import ClusterConfig
from clouds.gcp import CLOUD
from clouds.gcp.bootstrap import startup_script_problem
from clouds.gcp.filesystems import choose_file_system
from clouds.gcp.labels import LabelText, label_collisions
from clouds.gcp.machine import guest_accelerators
from clouds.gcp.nics import GPUDIRECT, gpudirect_flavour
from clouds.gcp.placement import placement_spec
from clouds.gcp.tpu import is_tpu, tpu_chips
from clouds.tag_rules import TagRules, tag_problem

# Child names append up to 19 characters (`-rdma-sub-7` plus Pulumi's 8-character
# suffix) and GCP names stop at 63, so the cluster name stops at 40.
MAX_NAME_CHARS = 40
_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")

# GCP "Requirements for labels" (cloud.google.com/compute/docs/labeling-resources).
TAG_RULES = TagRules(
    "GCP",
    64,
    63,
    63,
    LabelText(key=True),
    LabelText(key=False),
    "lowercase letters (of any script), digits, _ and -, a key starting with a letter",
)


def validate_args(args: ClusterConfig, name: str) -> None:
    """Reject what the GCP component cannot build (the contract: `clouds.base.Cloud.validator`); `name`, the
    cluster (component) name, must suit the GCP resource names derived from it."""
    check_provider(args, "gcp", "GCP")
    reject_unsupported(args, ("kms_key_id",), "GCP", "it encrypts disks and file systems with Google-managed keys")
    if not _NAME.match(name) or len(name) > MAX_NAME_CHARS:
        raise ValueError(
            f"name: '{name}' must be lowercase letters, digits and '-', start with a letter "
            f"and hold at most {MAX_NAME_CHARS} characters (GCP resource names derive from it)"
        )
    if not args.zone.startswith(f"{args.region}-"):
        raise ValueError(f"zone: {args.zone} is not in region {args.region}; give a zone name such as {args.region}-a")
    if args.subnet_id:
        raise ValueError("subnet_id: existing subnets are not supported on GCP yet; remove it")
    check_reservation_support(args, CLOUD.display_name, CLOUD.reservation_kinds)
    if is_tpu(args.instance_type):
        _check_tpu(args)
    else:
        _check_gpu(args)
    _check_labels(args.tags)
    check_ssh_cidrs(args.ssh_cidrs)
    if args.file_system is not None:
        choose_file_system(args.file_system)
    too_big = startup_script_problem(args, name)
    if too_big:
        raise ValueError(too_big)


def _check_tpu(args: ClusterConfig) -> None:
    chips = tpu_chips(args.instance_type)
    if args.accelerator_count != chips:
        raise ValueError(
            f"accelerator_count: {args.accelerator_count}, but {args.instance_type} has {chips} "
            "chips (v2-v5p names count TensorCores, 2 per chip); "
            f"set accelerator_count: {chips}"
        )


def _check_gpu(args: ClusterConfig) -> None:
    guest_accelerators(args.instance_type, args.accelerator, args.accelerator_count)
    if args.interconnect == "rdma" and gpudirect_flavour(args.instance_type) is None:
        raise ValueError(
            f"interconnect: rdma needs GPUDirect and {args.instance_type} has none; "
            f"choose one of {', '.join(GPUDIRECT)} or set interconnect: none"
        )
    placement_spec(args.instance_type, args.nodes)


def _check_labels(tags: dict[str, str]) -> None:
    clashes = label_collisions(tags)
    if clashes:
        first, second, label = clashes[0]
        raise ValueError(f"tags: '{first}' and '{second}' both become GCP label '{label}'; rename one")
    if problem := tag_problem(TAG_RULES, tags):
        raise ValueError(problem)
