"""Which EC2 types can share the AWS node group (`Cloud.group_types`).

The group is one Auto Scaling group with a mixed instances policy: its launch template
overrides list the types in rank order (`prioritized` on-demand, `capacity-optimized-
prioritized` spot allocation; EC2 Auto Scaling API `InstancesDistribution`), each override
may name its own launch template (`LaunchTemplateOverrides.LaunchTemplateSpecification`),
which `components.aws.nodes` gives a type whose EFA layout or user data differs. So any two
types of the same interconnect class share the group: with `rdma`, both have EFA (K1 of
`facts.aws`) or neither has; the resolver offers only types of the same accelerator count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clouds.aws.efa import efa_interface_count, interface_layout

if TYPE_CHECKING:
    from clouds.contract import ClusterConfig


def group_type_problem(instance_type: str, other: str, interconnect: str) -> str | None:
    """Why `other` cannot share the group with `instance_type` (EFA on one and not the
    other), or None."""
    has, other_has = efa_interface_count(instance_type, interconnect) > 0, efa_interface_count(other, interconnect) > 0
    if has != other_has:
        with_efa = instance_type if has else other
        return f"{with_efa} has EFA and the other does not (a group's nodes share one fabric)"
    return None


def own_template_types(args: ClusterConfig) -> tuple[str, ...]:
    """The fallback types that need their own launch template: those whose interface layout
    (`clouds.aws.efa.interface_layout`: EFA count, cards) or worker user data (NCCL and EFA
    settings, `clouds.aws.bootstrap`) differ from `args.instance_type`'s, in rank order."""
    from clouds.aws.bootstrap import node_user_data  # the component's; resolving loads no bootstrap

    def shape(instance_type: str) -> tuple:
        typed = args.model_copy(update={"instance_type": instance_type})
        text = node_user_data("c", typed, "dns", "mount", "host" if args.job else None, "worker")
        return tuple(interface_layout(instance_type, args.interconnect)), text

    first = shape(args.instance_type)
    return tuple(t for t in args.fallback_types if shape(t) != first)


def on_demand_base_problem(instance_type: str, interconnect: str) -> None:
    """None: any spot group keeps `on_demand_nodes` on-demand through its mixed instances
    policy's `OnDemandBaseCapacity` ("The minimum amount of the Auto Scaling group's capacity
    that must be fulfilled by On-Demand Instances", EC2 Auto Scaling InstancesDistribution)."""
    return None
