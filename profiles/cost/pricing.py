"""Prices beyond the catalog's on-demand and spot rows: reserved terms, spot overhead,
and the parallel file system's storage cost.

Reserved discounts off on-demand (until live reserved prices are fetched), from
`shared/reference-facts/pricing-models.md`. No provider page gave a GPU-family figure, so
each is the low end of a third-party or unsourced range, as the file advises:
  aws   1y 0.30, 3y 0.50: A4 (third-party Compute Savings Plans ranges, GPU families at
        the low end).
  azure 1y 0.30, 3y 0.55: unsourced [1y 30-40 %, 3y 55-65 % on Linux].
  gcp   1y 0.37, 3y 0.55: G3 (third-party, CUDs 37-55 %).
"""

from __future__ import annotations

from profiles.cost.work import SpotSpec

TERMS = ("1y", "3y")
RESERVED_DISCOUNT: dict[tuple[str, str], float] = {
    ("aws", "1y"): 0.30, ("aws", "3y"): 0.50,
    ("azure", "1y"): 0.30, ("azure", "3y"): 0.55,
    ("gcp", "1y"): 0.37, ("gcp", "3y"): 0.55,
}
HOURS_PER_MONTH = 730.0
GB_PER_GIB = 2**30 / 1e9

# FSx for Lustre PERSISTENT_2 SSD, USD per GB-month in us-east-1, by MB/s per TiB
# (storage.md): 125 -> 0.145 (F5, third-party estimate); 250/500/1000 unsourced
# [0.210 / 0.340 / 0.600]. No Azure Managed Lustre or GCP Filestore-zonal / Managed Lustre
# price was found: their storage cost is reported as unknown, never as 0.
FSX_USD_PER_GB_MONTH: dict[int, float] = {125: 0.145, 250: 0.210, 500: 0.340, 1000: 0.600}
FSX_PRICE_UNSOURCED = frozenset({250, 500, 1000})


def reserved_usd_per_hour(on_demand: float, provider: str, term: str) -> float | None:
    """Effective USD/hour of a 1y/3y commitment, amortized over the term (None if unknown)."""
    discount = RESERVED_DISCOUNT.get((provider, term))
    return None if discount is None else on_demand * (1 - discount)


def spot_overhead_hours(hours: float, nodes: int, spot: SpotSpec) -> float:
    """Expected extra hours from spot interruptions (first-order).

    Any node's interruption stops the job, so the cluster sees nodes x rate interruptions
    per hour; each loses half a checkpoint interval of work plus the restart time:
    extra = hours x nodes x rate/730 x (checkpoint_interval/2 + restart).
    """
    per_hour = nodes * spot.interruptions_per_node_month / HOURS_PER_MONTH
    return hours * per_hour * (spot.checkpoint_interval_hours / 2 + spot.restart_hours)


def storage_note(provider: str, throughput: int) -> str:
    """A remark for the row when the storage price is unknown or an unsourced estimate."""
    if provider != "aws" or throughput not in FSX_USD_PER_GB_MONTH:
        return "storage price unknown"
    return "FSx price: unsourced estimate" if throughput in FSX_PRICE_UNSOURCED else ""


def storage_usd(provider: str, capacity_gib: float, throughput: int, hours: float) -> float | None:
    """File-system cost for `hours`, USD, or None when no price is known for the provider.

    AWS: capacity rounded up to a size FSx accepts (clouds.aws.fsx, F1), priced per
    GB-month (storage.md: FSx capacity is GiB, priced per GB).
    """
    if provider != "aws" or throughput not in FSX_USD_PER_GB_MONTH:
        return None
    from clouds.aws.fsx import round_capacity_gib  # pure module, no Pulumi import

    gb = round_capacity_gib(capacity_gib) * GB_PER_GIB
    return gb * FSX_USD_PER_GB_MONTH[throughput] * hours / HOURS_PER_MONTH
