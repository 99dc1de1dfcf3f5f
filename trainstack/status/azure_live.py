"""The live answers `trainstack status` reads on Azure, through ARM REST
(`profiles.preflight.azure_api`): the subscription's scale sets tagged
`trainstack:cluster=<name>` (Azure copies the cluster's tags to them, `clouds.common`;
Compute REST `Virtual Machine Scale Sets - List All`) and each one's instance view
(`Virtual Machine Scale Sets - Get Instance View`: VMs per provisioning state and the set's
latest error statuses, e.g. `AllocationFailed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from trainstack.status.read import GroupStatus, azure_scale_set

# Compute REST API version of the scale set reads (2024-11-01 lists both calls).
API_VERSION = "2024-11-01"
TAG = "trainstack:cluster"


def groups_status(get: Any, subscription: str, name: str, provider: str) -> list[GroupStatus]:
    """The cluster's scale sets, in name order.

    Args:
        get: `(path) -> items` for a list, `(path) -> JSON answer` for one resource (`get(path, one=True)`).
    """
    path = f"/subscriptions/{subscription}/providers/Microsoft.Compute/virtualMachineScaleSets"
    sets = [s for s in get(path) if (s.get("tags") or {}).get(TAG) == name]
    return [
        azure_scale_set(found, get(f"{found['id']}/instanceView", one=True), provider)
        for found in sorted(sets, key=lambda s: s.get("name", ""))
    ]


def status(cluster: ClusterConfig, name: str, settings: Mapping[str, Any]) -> list[GroupStatus]:
    """The stack `name`'s scale sets, with the default credentials (`azure_api.credentials`)."""
    from profiles.preflight import azure_api

    token, subscription = azure_api.credentials()

    def get(path: str, one: bool = False) -> Any:
        if one:
            return azure_api.call("GET", path, token, API_VERSION)
        return azure_api.listed(path, token, API_VERSION)

    return groups_status(get, subscription, name, cluster.provider)
