"""Volcengine tags: the cluster's cost tags as the `[{key, value}]` lists Volcengine takes.

Tag keys on Volcengine are 1-128 characters of letters of any language, digits, spaces and
`_ . : / = + - @`, must not start with `volc:` or `sys:` in any case, and must not start or
end with a space; values take the same characters, 0-256 of them (pulumi_volcenginecc 0.0.64
tag docs for ECS, VPC and vePFS resources, official provider source: "Length must be between
0 and 256 characters"). `:` is allowed, so the keys of
`clouds.common.cluster_tags` (`trainstack:cluster`) are kept as they are; user tags
that break the rules are rejected by `check_tags` rather than rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from clouds.common import cluster_tags

PROVIDER = "volcengine"
MAX_KEY_CHARS = 128
MAX_VALUE_CHARS = 256
RESERVED_PREFIXES = ("volc:", "sys:")
_ALLOWED = re.compile(r"^[\w .:/=+\-@]*$")


def volcengine_tags(name: str, extra: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """Cost tags for every taggable Volcengine resource of one cluster.

    Args:
        name: the cluster name.
        extra: the stack's own tags (`ClusterConfig.tags`).

    Returns:
        `[{"key": "trainstack:cluster", "value": name}, {"key": "trainstack:provider",
        "value": "volcengine"}, ...extra]`, in that order.
    """
    tags = cluster_tags(PROVIDER, name, extra)
    return [{"key": key, "value": value} for key, value in tags.items()]


def tags_as_dict(tags: list[dict[str, str]]) -> dict[str, str]:
    """`[{key, value}]` back to a mapping (for tests and reports)."""
    return {tag["key"]: tag["value"] for tag in tags}


def check_tags(extra: Mapping[str, str]) -> None:
    """Reject extra tags Volcengine would refuse.

    Raises:
        ValueError: one line naming the key and the rule it breaks.
    """
    for key, value in extra.items():
        if not key or len(key) > MAX_KEY_CHARS or key != key.strip():
            raise ValueError(
                f"tags: key '{key}' must be 1-{MAX_KEY_CHARS} characters without leading or trailing spaces; rename it"
            )
        if len(value) > MAX_VALUE_CHARS:
            raise ValueError(
                f"tags: {key}: the value is {len(value)} characters, Volcengine allows {MAX_VALUE_CHARS}; shorten it"
            )
        if key.lower().startswith(RESERVED_PREFIXES):
            raise ValueError(f"tags: key '{key}' starts with volc: or sys:, reserved by Volcengine; rename it")
        for text in (key, value):
            if not _ALLOWED.match(text):
                raise ValueError(
                    f"tags: '{text}' holds a character Volcengine refuses; use letters, digits, "
                    "spaces and _ . : / = + - @"
                )
