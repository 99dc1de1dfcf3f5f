"""Scale-set priority settings for a purchase option (Spot or pay-as-you-go).

Facts from shared/reference-facts/pricing-models.md (Azure section):
  Z4  Spot VMs may be evicted with 30 seconds' notice. Eviction policy Deallocate (the
      default) stops the VM but keeps its disks billed, does not guarantee re-allocation
      and keeps counting against quota; Delete removes the VM and its disks.
  Z5  Spot max price: USD with up to 5 decimals; -1 means the VM is never evicted for
      price and pays the lower of the current Spot price and the standard price.

Eviction policy: Delete. A deallocated Spot node of a training cluster keeps paying for
its OS disk and holding Spot quota while doing no work, and Azure does not promise to
re-allocate it (Z4); training state lives in checkpoints on the shared file system, not on
node disks, so nothing is lost by deleting the VM. Scaling the set back to `nodes`
recreates the missing nodes from the same model.

Max price: -1, so nodes are evicted only for capacity, never for price, and never pay more
than on-demand (Z5).
"""

from __future__ import annotations

from typing import Any

SPOT_EVICTION_POLICY = "Delete"
SPOT_MAX_PRICE_USD = -1.0  # never evicted for price; pay at most the standard price (Z5)


def priority_settings(purchase: str) -> dict[str, Any]:
    """`VirtualMachineScaleSetVMProfile` priority fields for a purchase option.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).

    Returns:
        For spot: `priority="Spot"`, `eviction_policy="Delete"` and
        `billing_profile={"max_price": -1.0}`; for on-demand: `priority="Regular"` only.

    Raises:
        ValueError: for any other purchase option.
    """
    if purchase == "spot":
        return {
            "priority": "Spot",
            "eviction_policy": SPOT_EVICTION_POLICY,
            "billing_profile": {"max_price": SPOT_MAX_PRICE_USD},
        }
    if purchase == "on-demand":
        return {"priority": "Regular"}
    raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")
