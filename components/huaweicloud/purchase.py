"""ECS charging arguments for a purchase option (spot or pay-per-use).

Facts (shared/reference-facts/china-clouds.md section 2.3, from the Terraform
`huaweicloud_compute_instance` doc, official; the same text is in pulumi_huaweicloud
`ecs.Instance`): `charging_mode` is `prePaid`, `postPaid` (the default) or `spot`;
`spot_maximum_price` is the highest hourly price accepted and "if the price is not
specified, the pay-per-use price is used by default"; `spot_duration` (1-6 h) asks for a
spot instance with a guaranteed run time. Typical spot discount: unsourced.

Decisions: on-demand nodes are `postPaid` (a reserved `commitment` only changes billing, as
on the other clouds). Spot nodes get no maximum price by default, so they are never
reclaimed for price and never cost more than pay-per-use; `spot_duration` is not set, since
its price is unsourced and training restarts from checkpoints anyway.
"""

from __future__ import annotations

from typing import Any


def charging_args(purchase: str, spot_maximum_price: float | None = None) -> dict[str, Any]:
    """`ecs.Instance` charging fields for a purchase option.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).
        spot_maximum_price: optional hourly price cap for spot nodes, in the account's
            billing currency (CNY on the China site); None uses the pay-per-use price.

    Returns:
        `{"charging_mode": "spot"}` (+ `spot_maximum_price` as a string) or
        `{"charging_mode": "postPaid"}`.

    Raises:
        ValueError: for another purchase option or a non-positive price cap.
    """
    if purchase == "on-demand":
        return {"charging_mode": "postPaid"}
    if purchase != "spot":
        raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")
    args: dict[str, Any] = {"charging_mode": "spot"}
    if spot_maximum_price is not None:
        if spot_maximum_price <= 0:
            raise ValueError(f"spot_maximum_price: {spot_maximum_price} must be > 0")
        args["spot_maximum_price"] = f"{spot_maximum_price:g}"
    return args
