"""Huawei Cloud tags: the cluster's cost tags rewritten to the characters Huawei accepts.

Huawei's Tag Management Service (TMS) "constraints and limits" page (support.huaweicloud.com,
zh-cn_topic_0142168380, updated 2024-04-16, official) allows in a tag key at most 36
characters of letters, digits, `_`, `-`, Chinese characters and `@`; in a value at most 43
characters of letters, digits, `_`, `.`, `-`, Chinese characters and `@`. The ECS v2
`ProjectTag` model of huaweicloud-sdk-go-v3 (official SDK) states the same 36/43 limits.
Newer services accept `:` too, but not every service does, so the strictest rule is used
for every resource: `trainstack:cluster` becomes `trainstack-cluster` (as on GCP). A stack's
key or value longer than that is refused (`check_tags`), never cut short.
Keys starting with `_sys_` are system tags tenants cannot set (huaweicloud-sdk-go-v3 GA
`ResourceTag`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from clouds.common import cluster_tags

PROVIDER = "huaweicloud"
MAX_KEY_CHARS = 36
MAX_VALUE_CHARS = 43
SYSTEM_PREFIX = "_sys_"
_KEY_INVALID = re.compile(r"[^A-Za-z0-9_@\u4e00-\u9fff-]")
_VALUE_INVALID = re.compile(r"[^A-Za-z0-9_.@\u4e00-\u9fff-]")


def sanitize_key(key: str) -> str:
    """A tag key Huawei accepts: other characters (`:`, `/`, ` `...) -> `-`, at most 36.

    Example: `trainstack:cluster` -> `trainstack-cluster`.
    """
    return _KEY_INVALID.sub("-", key.strip())[:MAX_KEY_CHARS]


def sanitize_value(value: str) -> str:
    """A tag value Huawei accepts: other characters -> `-`, at most 43 characters."""
    return _VALUE_INVALID.sub("-", value.strip())[:MAX_VALUE_CHARS]


def huawei_tags(name: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Cost tags for every taggable Huawei resource of one cluster.

    Args:
        name: the cluster name.
        extra: the stack's own tags (`ClusterConfig.tags`).

    Returns:
        `clouds.common.cluster_tags(...)` with every key and value sanitized:
        `{"trainstack-cluster": name, "trainstack-provider": "huaweicloud", **extra}`.
    """
    tags = cluster_tags(PROVIDER, name, extra)
    return {sanitize_key(key): sanitize_value(value) for key, value in tags.items()}


def check_tags(extra: Mapping[str, str]) -> None:
    """Reject extra tags that cannot be written to Huawei Cloud as given: characters are
    rewritten (`sanitize_key`), but a key or value too long is refused, never cut short.

    Raises:
        ValueError: one line for an empty or system key, a key over 36 or a value over 43
            characters, or two keys that sanitize to the same key (also against the
            `trainstack-*` keys).
    """
    seen = {sanitize_key(key): key for key in cluster_tags(PROVIDER, "x")}
    for key, value in extra.items():
        for text, what, limit in ((key.strip(), "key", MAX_KEY_CHARS), (value.strip(), "value", MAX_VALUE_CHARS)):
            if len(text) > limit:
                raise ValueError(
                    f"tags: {what} {text[:40]!r} is {len(text)} characters; Huawei Cloud allows {limit}; shorten it"
                )
        clean = sanitize_key(key)
        if not clean:
            raise ValueError("tags: an empty tag key is not allowed on Huawei Cloud; remove it")
        if clean.lower().startswith(SYSTEM_PREFIX):
            raise ValueError(f"tags: '{key}' starts with {SYSTEM_PREFIX}, reserved for system tags; rename it")
        if clean in seen:
            raise ValueError(
                f"tags: '{seen[clean]}' and '{key}' both become '{clean}' on Huawei Cloud "
                "(keys allow letters, digits, _, -, @); rename one"
            )
        seen[clean] = key
