"""Cost-allocation tags applied to every taggable Azure resource of a cluster.

Azure tag names may not contain `<`, `>`, `%`, `&`, `\\`, `?` or `/` (ARM resource `tags`
reference); `:` is allowed, so the keys match the AWS component's.
"""

from __future__ import annotations

from collections.abc import Mapping

PROVIDER = "azure"


def cluster_tags(name: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Tags for every taggable resource of one cluster.

    Args:
        name: the component's logical name (the cluster name).
        extra: the stack's own cost tags (`ClusterConfig.tags`), applied last.

    Returns:
        `{"trainstack:cluster": name, "trainstack:provider": "azure", **extra}`.
    """
    return {"trainstack:cluster": name, "trainstack:provider": PROVIDER, **(extra or {})}
