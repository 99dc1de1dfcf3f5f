"""Which CVM types can share the Tencent node group (`Cloud.group_types`).

The group's launch configuration lists the types in rank order (`As.ScalingConfig`
`instance_types`, tencentcloud-iac-pulumi 0.2.3: "Specified types of CVM instances";
CreateLaunchConfiguration, API 377/31001: `InstanceTypes`, at most 10 types, used in the order
listed when the first has no stock). One configuration holds one image, one system disk and one
spot bid (`spot_max_price`, the stack's bid, applies to every type). HCC (RDMA) types are
per-node instances in their HPC cluster (`clouds.tencentcloud.group`): no group, so no type
shares one with them.
"""

from __future__ import annotations

from clouds.tencentcloud.facts import is_hcc


def group_type_problem(instance_type: str, other: str, interconnect: str) -> str | None:
    """Why `other` cannot share the launch configuration with `instance_type`, or None."""
    for name in (instance_type, other):
        if is_hcc(name):
            return f"{name} is an HCC (RDMA) type, created per node in its HPC cluster, which a launch configuration cannot carry"
    return None
