"""ECS instance billing fields for a purchase option (spot or pay-as-you-go).

Facts (shared/reference-facts/china-clouds.md; pulumi-alicloud 4.0.0 `ecs.Instance` docs):
  section 5.1  `spot_strategy` is `NoSpot` / `SpotWithPriceLimit` / `SpotAsPriceGo`, valid
      only with `instance_charge_type = "PostPaid"`; `spot_price_limit` is hourly, at most
      3 decimals; `spot_interruption_behavior` `Terminate` (default) or `Stop`.
  section 2.1  spot protection period `spot_duration` 0-6 h, default 1 h (2-6 by invitation).
  section 0 item 3, section 2.1  **spot is for China-site (domestic, aliyun.com) accounts
      only** ("spot instance only supports domestic site account", Terraform/Pulumi docs).
      An international-site account gets an API error on the first spot node.
  pulumi-alicloud `spot_strategy` doc: `SpotAsPriceGo` is "a price that is based on the
      highest Pay-As-You-Go instance", i.e. the bid follows the market and never exceeds
      the pay-as-you-go price.

Decisions: spot uses `SpotAsPriceGo`, so no price in a currency the provider-neutral
contract does not carry is needed and a node never costs more than on demand; protection
stays at the documented 1 hour default (stated explicitly); interruption `Terminate`
releases the node, because training state lives in checkpoints on the shared file system.
"""

from __future__ import annotations

from typing import Any

CHARGE_TYPE = "PostPaid"
SPOT_STRATEGY = "SpotAsPriceGo"
SPOT_DURATION_HOURS = 1
SPOT_INTERRUPTION = "Terminate"


def charge_settings(purchase: str) -> dict[str, Any]:
    """`ecs.Instance` billing arguments for a purchase option.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).

    Returns:
        For spot: `instance_charge_type="PostPaid"`, `spot_strategy="SpotAsPriceGo"`,
        `spot_duration=1` (hours) and `spot_interruption_behavior="Terminate"`; for
        on-demand: `instance_charge_type="PostPaid"`, `spot_strategy="NoSpot"`.

    Raises:
        ValueError: for any other purchase option.
    """
    if purchase == "spot":
        return {
            "instance_charge_type": CHARGE_TYPE,
            "spot_strategy": SPOT_STRATEGY,
            "spot_duration": SPOT_DURATION_HOURS,
            "spot_interruption_behavior": SPOT_INTERRUPTION,
        }
    if purchase == "on-demand":
        return {"instance_charge_type": CHARGE_TYPE, "spot_strategy": "NoSpot"}
    raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")
