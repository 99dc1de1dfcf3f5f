"""Which Tencent clusters the Auto Scaling group holds, and its size limit (no Pulumi import).

The component (`components.tencentcloud.cluster`) and the healing line (`Healing.per_node`,
`clouds/tencentcloud/cloud.yaml`) ask the same rule, so `plan` says what the program builds.

Sources: tencentcloud-iac-pulumi 0.2.3 `As.ScalingConfig` (as installed) takes
`disaster_recover_group_ids` ("Placement group ID. Only one is allowed") but no HPC cluster, so
HCC (RDMA) types, which must be created into an HPC cluster (china-clouds.md section 3), stay
per-node instances. `As.ScalingGroup` `min_size` / `max_size`: "Valid value ranges: (0~2000)";
Tencent's Auto Scaling FAQ (document 377/4166): "A scaling group can have up to 2,000 CVM
instances". Names: `scaling_group_name` 1-55 and `configuration_name` 1-60 characters
(tencentcloudstack/terraform-provider-tencentcloud `resource_tc_as_scaling_group.go` at 2f24160,
`resource_tc_as_scaling_config.go` at f06792c), so the cluster name, which both derive from
(`{name}-nodes`, `{name}-node-config`), holds at most `NAME_MAX` characters.
"""

from __future__ import annotations

from clouds.tencentcloud.facts import is_hcc

GROUP_MAX_NODES = 2000
NAME_MAX = min(55 - len("-nodes"), 60 - len("-node-config"))


def check_group_names(name: str) -> None:
    """Refuse a cluster name too long for the group's and configuration's names.

    Raises:
        ValueError: one line naming `name` and the fix.
    """
    if len(name) > NAME_MAX:
        raise ValueError(
            f"name: '{name}' has {len(name)} characters; the Auto Scaling names derived from it "
            f"(`{name}-node-config`) allow at most {NAME_MAX}; rename the stack or cluster"
        )


def per_node_reason(instance_type: str, purchase: str = "", kms_key_id: str | None = None) -> str | None:
    """Why a cluster's nodes are per-node CVM instances instead of the group, or None.

    Args:
        instance_type: the CVM type.
        purchase: unused (the launch configuration takes spot and pay-as-you-go alike).
        kms_key_id: unused (Tencent refuses it: `validate`).
    """
    if is_hcc(instance_type):
        return (
            f"{instance_type} is an HCC (RDMA) type, which must join an HPC cluster, and "
            "tencentcloud-iac-pulumi 0.2.3 As.ScalingConfig takes no HPC cluster"
        )
    return None
