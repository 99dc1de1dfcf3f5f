"""Pure helpers of the Baidu component: address plan, resource names, tags and spec names.

Tags: the common keys `trainstack:cluster` / `trainstack:provider` are written with `-`
instead of `:` (`trainstack-cluster`). Whether BCC tag keys accept `:` is unsourced; the
only Baidu tag rule found (AppBuilder tag API) allows letters, digits, Chinese and `-_ /.`.

Spec names: BCC specs are named like `bcc.hgn5IB.c116m978.8A100-80g`; the last part encodes
the GPU count and model and the family carries `IB` for InfiniBand (china-clouds.md §1.5,
official BCC API doc "查询实例套餐规格(新)", 2026-06-22).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

VPC_CIDR = "10.0.0.0/16"  # RFC 1918 private range; the whole cluster fits in one /20
NODE_SUBNET_CIDR = "10.0.0.0/20"
DEPLOY_SET_STRATEGY = "HOST_HA"  # the only strategies the SDK exposes spread nodes (§3)
IMAGE_OS = "Ubuntu"
# Public-key types Baidu imports (official BCC API "Import a key pair", 2025-10-20): no ED25519.
KEY_TYPES = ("ssh-rsa", "ssh-dss", "ecdsa-sha2-")
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_]")
_HOST_CHARS = re.compile(r"[^a-z0-9-]")
_GPU_PART = re.compile(r"^(\d+)[A-Za-z]")


def resource_name(name: str) -> str:
    """A name every Baidu network API accepts: letters, digits and `_`, starting with a letter.

    The VPC API allows "numbers, letters, and underscores" up to 65 characters (official VPC
    API "Create VPC"); the same safe form is used for subnets, security groups, deploy sets,
    EHC clusters and key pairs.

    Args:
        name: a Pulumi logical name such as `train-a100-vpc`.

    Returns:
        e.g. `train_a100_vpc`, at most 65 characters.
    """
    safe = _NAME_CHARS.sub("_", name)
    if not safe[:1].isalpha():
        safe = f"ts_{safe}"
    return safe[:65]


def hostname(name: str) -> str:
    """A BCC hostname: lowercase letters, digits and `-`, starting with a letter, 2-64 chars
    (generated BCC SDK, `CreateInstanceBySpecRequest.hostname`)."""
    host = _HOST_CHARS.sub("-", name.lower()).strip("-")
    host = re.sub("-{2,}", "-", host)
    if not host[:1].isalpha():
        host = f"n-{host}"
    return host[:64].rstrip("-")


def baidu_tags(tags: Mapping[str, str]) -> dict[str, str]:
    """The cluster's cost tags with `:` in keys replaced by `-` (see the module docstring)."""
    return {key.replace(":", "-"): value for key, value in tags.items()}


def tag_list(tags: Mapping[str, str] | None) -> list[dict[str, str]]:
    """Tags as the API's `[{"tagKey": ..., "tagValue": ...}]`, sorted by key."""
    return [{"tagKey": key, "tagValue": (tags or {})[key]} for key in sorted(tags or {})]


def spec_family(spec: str) -> str:
    """The family part of a spec name: `hgn5IB` for `bcc.hgn5IB.c116m978.8A100-80g`."""
    parts = spec.split(".")
    return parts[1] if len(parts) > 1 else ""


def spec_gpu_count(spec: str) -> int | None:
    """GPUs per instance encoded in a spec name (`...8A100-80g` -> 8), or None if absent."""
    parts = spec.split(".")
    match = _GPU_PART.match(parts[-1]) if len(parts) >= 4 else None
    return int(match.group(1)) if match else None


def has_infiniband(spec: str) -> bool:
    """True when the spec's family carries `IB` (InfiniBand, §1.5)."""
    return "IB" in spec_family(spec)
