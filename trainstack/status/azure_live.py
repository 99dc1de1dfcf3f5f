"""The live answers `trainstack status` reads on Azure, through ARM REST
(`profiles.preflight.azure_api`): the subscription's scale sets tagged
`trainstack:cluster=<name>` (Azure copies the cluster's tags to them, `clouds.common`;
Compute REST `Virtual Machine Scale Sets - List All`) and each one's instance view
(`Virtual Machine Scale Sets - Get Instance View`: VMs per provisioning state and the set's
latest error statuses, e.g. `AllocationFailed`). A Flexible scale set has no instance view
("Operation 'VirtualMachineScaleSets.instanceView.GET' is not allowed", hashicorp/nomad-autoscaler
#1096): its VMs are listed with their statuses instead (`Virtual Machines - List All` with
`statusOnly=true` and the set's id as `$filter`, as Microsoft's answer in
Azure/azure-sdk-for-go#19707 advises).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from trainstack.status.read import GroupStatus, azure_flexible, azure_scale_set

# Compute REST API version of the scale set reads (2024-11-01 lists both calls).
API_VERSION = "2024-11-01"
TAG = "trainstack:cluster"


def in_set(vm: dict[str, Any], scale_set: dict[str, Any]) -> bool:
    """Whether a listed VM belongs to the Flexible `scale_set`: its `virtualMachineScaleSet.id`,
    or, where the status-only answer leaves that out, its name (the set names its VMs
    `<set name>_<suffix>`). The list's `$filter` asks for these already; this keeps the count
    true if the filter is ignored."""
    owner = ((vm.get("properties") or {}).get("virtualMachineScaleSet") or {}).get("id")
    if owner:
        return str(owner).lower() == str(scale_set.get("id", "")).lower()
    return str(vm.get("name", "")).startswith(f"{scale_set.get('name')}_")


def groups_status(get: Any, subscription: str, name: str, provider: str) -> list[GroupStatus]:
    """The cluster's scale sets, in name order.

    Args:
        get: `(path, params=...) -> items` for a list, `(path, one=True) -> JSON answer` for one resource.
    """
    compute = f"/subscriptions/{subscription}/providers/Microsoft.Compute"
    sets = [s for s in get(f"{compute}/virtualMachineScaleSets") if (s.get("tags") or {}).get(TAG) == name]
    found = []
    for scale_set in sorted(sets, key=lambda s: s.get("name", "")):
        if (scale_set.get("properties") or {}).get("orchestrationMode") == "Flexible":
            where = {"statusOnly": "true", "$filter": f"virtualMachineScaleSet/id eq '{scale_set['id']}'"}
            vms = [vm for vm in get(f"{compute}/virtualMachines", params=where) if in_set(vm, scale_set)]
            found.append(azure_flexible(scale_set, vms, provider))
        else:
            found.append(azure_scale_set(scale_set, get(f"{scale_set['id']}/instanceView", one=True), provider))
    return found


def status(cluster: ClusterConfig, name: str, settings: Mapping[str, Any]) -> list[GroupStatus]:
    """The stack `name`'s scale sets, with the default credentials (`azure_api.credentials`)."""
    from profiles.preflight import azure_api

    token, subscription = azure_api.credentials()

    def get(path: str, one: bool = False, params: dict[str, str] | None = None) -> Any:
        if one:
            return azure_api.call("GET", path, token, API_VERSION)
        return azure_api.listed(path, token, API_VERSION, params)

    return groups_status(get, subscription, name, cluster.provider)
