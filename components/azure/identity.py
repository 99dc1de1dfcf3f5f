"""The nodes' user-assigned managed identity: what a node may reach in Azure beyond the cluster.

It holds no role of its own; each feature that needs one grants it on the narrowest scope (the
dataset container: `data_link.create_node_access`).
"""

from __future__ import annotations

import pulumi_azure_native as azure_native

from components.azure.place import Place


def create_node_identity(place: Place) -> azure_native.managedidentity.UserAssignedIdentity:
    """Create `{name}-node-identity`, attached to the scale set (`compute.create_scale_set`)."""
    return azure_native.managedidentity.UserAssignedIdentity(
        f"{place.name}-node-identity", **place.located(), opts=place.opts
    )
