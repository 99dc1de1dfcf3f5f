"""CVM billing fields for a purchase option (spot or pay-as-you-go by the hour).

Facts (shared/reference-facts/china-clouds.md; tencentcloud-iac-pulumi 0.2.3
`instance.Instance` docs):
  section 5.2, 2.2  spot: `instance_charge_type="SPOTPAID"` with
      `spot_instance_type="ONE-TIME"` (the only value) and `spot_max_price`, a decimal
      string ("0.50"); the SDK says a `SPOTPAID` instance "must set `spot_instance_type`
      and `spot_max_price` at the same time". Reclaim notice: instance metadata
      `.../meta-data/spot/termination-time` (official).
  section 0 item 3, 2.2  **TencentCloud International accounts cannot buy spot** (nor
      prepaid): they support only `POSTPAID_BY_HOUR` and `CDHPAID` (Terraform doc). The
      cluster config does not say which site an account is on, so this is documented,
      not checked; an international account gets an API error on the first spot node.
  section 2.2  GPU CVM prices and typical spot discounts: unsourced.

Decision: the bid `spot_max_price` is in the account's billing currency per node-hour
(CNY on the China site). The provider-neutral `ClusterConfig` carries only USD prices and
no dated USD/CNY rate exists in the facts (section 2.6), so the component cannot derive a
bid; the caller passes it (`TencentcloudGpuCluster(..., spot_max_price="12.50")`) and a
spot cluster without one is rejected before anything is created.
"""

from __future__ import annotations

import re
from typing import Any

ON_DEMAND_CHARGE_TYPE = "POSTPAID_BY_HOUR"
SPOT_CHARGE_TYPE = "SPOTPAID"
SPOT_INSTANCE_TYPE = "ONE-TIME"
_PRICE = re.compile(r"\d+(\.\d+)?")


def check_spot_max_price(purchase: str, spot_max_price: str | None) -> None:
    """Reject a spot cluster without a usable bid, and a bid without spot.

    Raises:
        ValueError: one line naming `spot_max_price` and the fix.
    """
    if purchase != "spot":
        if spot_max_price is not None:
            raise ValueError("spot_max_price: given for an on-demand cluster; remove it or set purchase: spot")
        return
    if spot_max_price is None:
        raise ValueError(
            "spot_max_price: purchase spot on Tencent needs a bid per node-hour in the "
            "account's currency (CNY on the China site), which ClusterConfig does not carry; "
            "pass spot_max_price='<price>' to TencentcloudGpuCluster or set purchase: on-demand"
        )
    if not _PRICE.fullmatch(spot_max_price.strip()) or float(spot_max_price) <= 0:
        raise ValueError(f"spot_max_price: '{spot_max_price}' is not a positive decimal string; write it like '12.50'")


def charge_settings(purchase: str, spot_max_price: str | None = None) -> dict[str, Any]:
    """`instance.Instance` billing arguments for a purchase option.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).
        spot_max_price: the spot bid, decimal string per node-hour (spot only).

    Returns:
        For spot: `instance_charge_type="SPOTPAID"`, `spot_instance_type="ONE-TIME"` and
        `spot_max_price`; for on-demand: `instance_charge_type="POSTPAID_BY_HOUR"`.

    Raises:
        ValueError: for another purchase option or an unusable bid
            (`check_spot_max_price`).
    """
    if purchase not in ("spot", "on-demand"):
        raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")
    check_spot_max_price(purchase, spot_max_price)
    if purchase == "spot":
        return {
            "instance_charge_type": SPOT_CHARGE_TYPE,
            "spot_instance_type": SPOT_INSTANCE_TYPE,
            "spot_max_price": str(spot_max_price).strip(),
        }
    return {"instance_charge_type": ON_DEMAND_CHARGE_TYPE}
