"""What every cloud's node group (a scaling group that keeps a fixed number of nodes) shares:
its size arguments and its replacement options. The clouds' own arguments stay in
`components/<cloud>/`; this module names no cloud."""

from __future__ import annotations

from collections.abc import Iterable

import pulumi


def fixed_size(nodes: int, most: int, group: str, keys: tuple[str, str, str]) -> dict[str, int]:
    """The minimum, maximum and desired size of a group that keeps exactly `nodes` instances.

    Args:
        nodes: the cluster's node count.
        most: the largest size the cloud's group takes (its documented limit).
        group: the group, for the message (`an ESS scaling group`).
        keys: the cloud's names of the minimum, maximum and desired size arguments.

    Raises:
        ValueError: `nodes: N is outside 1-<most>, the sizes <group> takes`.
    """
    if not 1 <= nodes <= most:
        raise ValueError(f"nodes: {nodes} is outside 1-{most}, the sizes {group} takes")
    return dict.fromkeys(keys, nodes)


def replaced_first(opts: pulumi.ResourceOptions, replaced_on: Iterable[str]) -> pulumi.ResourceOptions:
    """`opts` for a group whose change of any `replaced_on` input (wire names) brings a new
    group rather than an updated one, the old group deleted first (the new one takes its name,
    and nodes never run twice over)."""
    return pulumi.ResourceOptions.merge(
        opts, pulumi.ResourceOptions(replace_on_changes=list(replaced_on), delete_before_replace=True)
    )
