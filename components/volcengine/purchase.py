"""ECS billing arguments for a purchase option (spot or pay-as-you-go).

Facts (china-clouds.md section 2.4 and section 5.4, Terraform `ecs_instance` doc, official;
same text in pulumi_volcengine `ecs.Instance`): `spot_strategy` is `NoSpot` (default, "a
normal pay-as-you-go instance"), `SpotAsPriceGo` ("system automatically bidding and
following the current market price") or `SpotWithPriceLimit` (with `spot_price_limit`, an
hourly price with up to three decimals); both spot fields are ForceNew.
`instance_charge_type` is `PostPaid` or `PrePaid`. Typical spot discount: unsourced.

Decisions: every node is `PostPaid` (spot is a variant of pay-as-you-go; a reserved
`commitment` only changes billing). Spot nodes follow the market (`SpotAsPriceGo`) unless a
price limit is given.
"""

from __future__ import annotations

from typing import Any

CHARGE_TYPE = "PostPaid"


def spot_args(purchase: str, price_limit: float | None = None) -> dict[str, Any]:
    """`ecs.Instance` billing fields for a purchase option.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).
        price_limit: optional hourly price cap for spot nodes in the account's billing
            currency (CNY on the China site); None follows the market price.

    Returns:
        `instance_charge_type="PostPaid"` with `spot_strategy` `NoSpot`, `SpotAsPriceGo`
        or `SpotWithPriceLimit` (+ `spot_price_limit`, rounded to 3 decimals).

    Raises:
        ValueError: for another purchase option or a non-positive price cap.
    """
    if purchase == "on-demand":
        return {"instance_charge_type": CHARGE_TYPE, "spot_strategy": "NoSpot"}
    if purchase != "spot":
        raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")
    if price_limit is None:
        return {"instance_charge_type": CHARGE_TYPE, "spot_strategy": "SpotAsPriceGo"}
    if price_limit <= 0:
        raise ValueError(f"spot_price_limit: {price_limit} must be > 0")
    return {
        "instance_charge_type": CHARGE_TYPE,
        "spot_strategy": "SpotWithPriceLimit",
        "spot_price_limit": round(price_limit, 3),
    }
