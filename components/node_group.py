"""What every cloud's fixed-size node group shares, whatever its service calls it.

A cluster's GPU nodes as an auto-scaling group that keeps its size: minimum = maximum =
desired = the node count (`fixed_size`), so nothing scales it in or out and the service only
replaces a node it lost. The group is replaced (the old one first: the new one takes the same
name) when an input that pins where its instances run changes (`group_options`), since the
services move no running instance to a new subnet or zone. Its launch / scaling configuration
is mapped from the arguments one per-node instance would get (`carried_args`), refusing an
argument the mapping does not know, so a new node argument is never dropped unseen.

Where the group names its configuration (Tencent, Huawei), `create_configured_group` makes
both from a `GroupKind`, and `group_or_instances` builds the group, or per-node instances
where the cloud says its group cannot carry the cluster (`Healing.per_node`), with the
provider-neutral node outputs of either.

Each cloud's `components/<cloud>/scaling.py` says what its own service calls these inputs,
its size limit (with its source) and what its configuration cannot carry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

import pulumi


def fixed_size(nodes: int, most: int, service: str, keys: tuple[str, str, str]) -> dict[str, int]:
    """The group's size inputs, all `nodes`.

    Args:
        nodes: the node count.
        most: the largest size the service takes (its source is the caller's).
        service: what the error calls the group ("an ESS scaling group").
        keys: the service's (minimum, maximum, desired) input names.

    Raises:
        ValueError: `nodes` outside 1..`most`.
    """
    if not 1 <= nodes <= most:
        raise ValueError(f"nodes: {nodes} is outside 1-{most}, the sizes {service} takes")
    return dict.fromkeys(keys, nodes)


def group_options(opts: pulumi.ResourceOptions, replaced_on: Iterable[str]) -> pulumi.ResourceOptions:
    """`opts` plus replace-on-change of `replaced_on` (camelCase input names), the old group
    deleted first (the new one takes its name)."""
    return pulumi.ResourceOptions.merge(
        opts, pulumi.ResourceOptions(replace_on_changes=list(replaced_on), delete_before_replace=True)
    )


def carried_args(
    instance: Mapping[str, Any],
    same_meaning: Mapping[str, str],
    not_carried: Mapping[str, str],
    folded: Mapping[str, Callable[[Mapping[str, Any]], dict[str, Any]]],
    where: str,
) -> dict[str, Any]:
    """Configuration arguments from the arguments of one per-node instance.

    Args:
        instance: the instance arguments.
        same_meaning: instance argument -> configuration argument of the same meaning.
        not_carried: instance argument -> what happens instead (the configuration has no input).
        folded: instance argument -> a function of the whole `instance` giving the
            configuration arguments it becomes (arguments that change shape).
        where: the module that holds the mapping, for the error.

    Raises:
        ValueError: an instance argument in none of the three mappings.
    """
    unknown = sorted(set(instance) - set(same_meaning) - set(not_carried) - set(folded))
    if unknown:
        raise ValueError(
            f"node arguments {', '.join(unknown)} have no scaling-configuration counterpart in {where}; "
            "map them in SAME_MEANING or say why in NOT_CARRIED"
        )
    carried = {same_meaning[key]: value for key, value in instance.items() if key in same_meaning}
    for fold in dict.fromkeys(folded[key] for key in sorted(set(folded) & set(instance))):
        carried.update(fold(instance))
    return carried


class NodeGroup(NamedTuple):
    """A created node group.

    Attributes:
        group: the scaling group (`{name}-nodes`), which creates the instances.
        configuration: the launch / scaling configuration it creates them from (`{name}-node-config`).
    """

    group: Any
    configuration: Any


class GroupKind(NamedTuple):
    """How one cloud's configured group is made.

    Attributes:
        configuration: the configuration's resource class.
        group: the group's resource class.
        link: the group's input that takes the configuration's id (`configuration_id`).
        replaced_on: camelCase group inputs whose change replaces it (`group_options`).
    """

    configuration: Callable[..., Any]
    group: Callable[..., Any]
    link: str
    replaced_on: tuple[str, ...]


def create_configured_group(
    name: str, kind: GroupKind, configuration: dict[str, Any], group: dict[str, Any], opts: pulumi.ResourceOptions
) -> NodeGroup:
    """Create the configuration (`{name}-node-config`), then the group (`{name}-nodes`) that
    names it through `kind.link`; the group is replaced, old first, on `kind.replaced_on`.

    Args:
        name: the cluster name.
        kind: the cloud's resource classes and link.
        configuration: the configuration's arguments.
        group: the group's arguments (without `kind.link`).
        opts: child options.
    """
    made = kind.configuration(f"{name}-node-config", **configuration, opts=opts)
    created = kind.group(f"{name}-nodes", **{kind.link: made.id}, **group, opts=group_options(opts, kind.replaced_on))
    return NodeGroup(created, made)


def group_or_instances(
    owner: Any,
    name: str,
    reason: str | None,
    group: Callable[[], NodeGroup],
    instances: Callable[[], list[Any]],
    private_ip: str,
) -> tuple[pulumi.Output[Any], pulumi.Output[Any]]:
    """The cluster's nodes: the group when `reason` is None, else per-node instances (with a
    warning saying why they are not replaced automatically). Sets `owner.node_group`,
    `owner.node_configuration` and `owner.nodes` (the one not built is None / empty).

    Returns:
        `node_ids` and `node_private_ips` (`group_outputs` or `instance_outputs`).
    """
    owner.nodes, owner.node_group, owner.node_configuration = [], None, None
    if reason is None:
        made = group()
        owner.node_group, owner.node_configuration = made.group, made.configuration
        return group_outputs(made)
    pulumi.log.warn(f"{name}: nodes are not replaced automatically: {reason}", resource=owner)
    owner.nodes = instances()
    return instance_outputs(owner.nodes, private_ip)


def group_outputs(group: NodeGroup) -> tuple[pulumi.Output[Any], pulumi.Output[Any]]:
    """`node_ids` and `node_private_ips` of a group: `[group id]` and `[]` (its instances come and go)."""
    return pulumi.Output.all(group.group.id), pulumi.Output.from_input([])


def instance_outputs(nodes: list[Any], private_ip: str) -> tuple[pulumi.Output[Any], pulumi.Output[Any]]:
    """`node_ids` and `node_private_ips` of per-node instances, in node order (`private_ip`: the
    instance's address attribute)."""
    return pulumi.Output.all(*[node.id for node in nodes]), pulumi.Output.all(
        *[getattr(node, private_ip) for node in nodes]
    )
