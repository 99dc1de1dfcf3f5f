"""The node network every cloud that can reuse a subnet describes the same way: a created VPC
and subnet, or the stack's existing subnet (`subnet_id`) and its VPC. The clouds' resources
stay in `components/<cloud>/network.py`; this module names no cloud."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pulumi

VpcT = TypeVar("VpcT")
SubnetT = TypeVar("SubnetT")


@dataclass(frozen=True)
class Network(Generic[VpcT, SubnetT]):
    """Where the nodes and the file system live.

    Attributes:
        vpc_id: the VPC (created, or the existing subnet's VPC).
        subnet_id: the subnet of every node and of the file system.
        vpc: the created VPC, or None when `subnet_id` was given.
        subnet: the created subnet, or None when `subnet_id` was given.
    """

    vpc_id: pulumi.Output[str]
    subnet_id: pulumi.Output[str]
    vpc: VpcT | None = None
    subnet: SubnetT | None = None

    @classmethod
    def created(cls, vpc: Any, subnet: Any) -> Network[VpcT, SubnetT]:
        """The network of a VPC and subnet the cluster creates (their `id` outputs)."""
        return cls(vpc.id, subnet.id, vpc, subnet)

    @classmethod
    def existing(cls, vpc_id: pulumi.Input[str], subnet_id: str) -> Network[VpcT, SubnetT]:
        """The network of the stack's existing subnet `subnet_id` in the VPC `vpc_id`."""
        return cls(pulumi.Output.from_input(vpc_id), pulumi.Output.from_input(subnet_id))
