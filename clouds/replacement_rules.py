"""What a cloud's changes replace (`Replacements`, read from `clouds/<cloud>/replacements.yaml` by
`clouds.cloud_file`), and what a change of a node-holding resource does to the running nodes
(`NodeEffect`): plain data the review reads (`trainstack.review.replacements`, `node_effects`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class NodeEffect:
    """What an update or replacement of a node-holding resource does to the nodes running in
    it (`trainstack.review.node_effects`, shown by the review).

    Attributes:
        rolls: input paths whose change replaces the running nodes (an instance refresh).
        resizes: input paths that only add or remove nodes.
        rolled: one line for a change that replaces the nodes, or a replacement of the resource.
        resized: one line for a change of `resizes` paths only.
        kept: one line for any other change: no running node is replaced.
        replace_keeps_nodes: replacing the resource itself replaces no node (an immutable
            template the group uses for new nodes only).
        moves: input paths naming where the nodes live (the group's subnets): a change, such
            as a zone change replacing the subnet, moves every node to the new place.
        moved: one line for a change of `moves` paths: the nodes lose their subnet.
        count: the input path holding how many nodes the group keeps running (its desired
            size), so the review can say how many a resize adds or terminates; "" when none.
    """

    rolls: tuple[str, ...] = ()
    resizes: tuple[str, ...] = ()
    rolled: str = "every node is replaced"
    resized: str = "nodes are added or removed; the running ones keep running"
    kept: str = "no running node is replaced"
    replace_keeps_nodes: bool = False
    moves: tuple[str, ...] = ()
    moved: str = "the nodes lose their subnet: every node is replaced by one in the new subnet"
    count: str = ""


@dataclass(frozen=True)
class Replacements:
    """Which input changes make the cloud's provider replace a resource (`trainstack.review.replacements`).

    Attributes:
        replace_on_change: type token -> input paths whose change replaces (path format in
            `trainstack.review.replacements`); each cloud's module docstring cites the sources.
        name_in_place: types whose `name` the provider changes in place.
        replace_on_decrease: type token -> numeric inputs that replace only when they shrink.
        cascades: (dependent type, input path, referenced type, id path) pairs whose input
            changes whenever the referenced resource is updated.
        every_type: (type-token prefix, paths) replacing on every type of that prefix.
        node_effects: node-holding type token -> what its changes do to running nodes.
        fixed_ranges: type token -> {numeric input path: ranges (low, high)}: the cloud updates
            the value within its range but refuses to move it into another, so such a change
            fails at `pulumi up` (a new resource is the only way).
        fixed_when: type token -> {input path: a boolean input}: the cloud refuses a change of
            the path while that input is true (FSx throughput on an EFA-enabled file system).
        grows_only: type token -> numeric inputs the cloud only increases in place: it refuses a
            smaller value (not a replacement: `pulumi up` fails).
        in_use_undeletable: types the cloud refuses to delete while a running node uses them (a
            subnetwork the running VMs' interfaces sit in).
    """

    replace_on_change: Mapping[str, tuple[str, ...]]
    name_in_place: frozenset[str] = frozenset()
    replace_on_decrease: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    cascades: tuple[tuple[str, str, str, str], ...] = ()
    every_type: tuple[tuple[str, tuple[str, ...]], ...] = ()
    node_effects: Mapping[str, NodeEffect] = field(default_factory=dict)
    fixed_ranges: Mapping[str, Mapping[str, tuple[tuple[float, float], ...]]] = field(default_factory=dict)
    fixed_when: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    grows_only: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    in_use_undeletable: frozenset[str] = frozenset()
