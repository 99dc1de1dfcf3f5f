"""Self-healing settings of the Azure scale set: spot restore and automatic instance repairs.

As Microsoft Learn documents them:
- "Automatic instance repairs for Azure Virtual Machine Scale Sets": the policy
  (`automaticRepairsPolicy`: `enabled`, `gracePeriod` as an ISO 8601 duration, 10 to 90
  minutes, default 30; `repairAction` Replace, Restart or Reimage) needs application health
  monitoring on every instance: the Application Health extension (publisher
  `Microsoft.ManagedServices`, type `ApplicationHealthLinux`) or a load-balancer probe.
- "Azure Spot Virtual Machines for scale sets", Spot restore: `spotRestorePolicy`
  (`enabled`, `restoreTimeout` ISO 8601, default PT1H) makes the scale set try to restore
  evicted Spot instances until the timeout; it needs the eviction policy Delete, which
  `purchase.priority_settings` sets.

The health probe is TCP to sshd (port 22, open only inside the virtual network): a node
whose OS stops answering is replaced.
"""

from __future__ import annotations

from typing import Any

REPAIR_GRACE_PERIOD = "PT30M"  # Azure's default; long enough for the HPC image to boot
SPOT_RESTORE_TIMEOUT = "PT1H"  # Azure's default
HEALTH_PORT = 22

HEALTH_EXTENSION: dict[str, Any] = {
    "name": "health",
    "publisher": "Microsoft.ManagedServices",
    "type": "ApplicationHealthLinux",
    "type_handler_version": "2.0",
    "auto_upgrade_minor_version": True,
    "settings": {"protocol": "tcp", "port": HEALTH_PORT},
}


def self_healing(purchase: str) -> dict[str, Any]:
    """Scale-set arguments: automatic repairs always; spot restore for spot.

    Args:
        purchase: `spot` or `on-demand`.

    Returns:
        `automatic_repairs_policy` and, for spot, `spot_restore_policy`.
    """
    policies: dict[str, Any] = {
        "automatic_repairs_policy": {"enabled": True, "grace_period": REPAIR_GRACE_PERIOD, "repair_action": "Replace"},
    }
    if purchase == "spot":
        policies["spot_restore_policy"] = {"enabled": True, "restore_timeout": SPOT_RESTORE_TIMEOUT}
    return policies


def health_extension_profile() -> dict[str, Any]:
    """The VM profile's `extension_profile` with the Application Health extension."""
    return {"extension_profile": {"extensions": [dict(HEALTH_EXTENSION)]}}
