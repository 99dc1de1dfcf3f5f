"""The nodes' user-assigned managed identity: what a node may reach in Azure beyond the cluster.

It holds no role of its own; each feature that needs one grants it on the narrowest scope (the
dataset container: `data_link.create_node_access`).
"""

from __future__ import annotations

import pulumi
import pulumi_azure_native as azure_native


def create_node_identity(
    name: str,
    region: str,
    resource_group_name: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> azure_native.managedidentity.UserAssignedIdentity:
    """Create `{name}-node-identity`, attached to the scale set (`compute.create_scale_set`).

    Args:
        name: the cluster name.
        region: the Azure region.
        resource_group_name: the cluster's resource group.
        tags: tags for the identity.
        opts: child options.
    """
    return azure_native.managedidentity.UserAssignedIdentity(
        f"{name}-node-identity",
        resource_group_name=resource_group_name,
        location=region,
        tags=tags,
        opts=opts,
    )
