"""The `Offering` record: one instance type in one zone, with its prices."""

from __future__ import annotations

from typing import Any, NamedTuple

# CSV columns of the project's catalog files, in order (profiles/catalog/data/<provider>.csv).
COLUMNS: tuple[str, ...] = (
    "provider",
    "region",
    "zone",
    "instance_type",
    "accelerator",
    "accelerator_count",
    "accelerator_memory_gib",
    "form_factor",
    "vcpus",
    "memory_gib",
    "interconnect",
    "max_efa_interfaces",
    "network_gbps",
    "on_demand_usd_per_hour",
    "spot_usd_per_hour",
    "catalog_date",
    "source",
    "reserved_1y_usd_per_hour",
    "reserved_3y_usd_per_hour",
    "currency",
    "on_demand_native",
    "spot_native",
    "price_note",
)
# The header before reserved prices were recorded; files with it still load (no reserved).
LEGACY_COLUMNS: tuple[str, ...] = COLUMNS[:17]
# The header before native-currency prices were recorded (reserved prices, USD only).
RESERVED_COLUMNS: tuple[str, ...] = COLUMNS[:19]
# Every header a catalog file may have, shortest first.
HEADERS: tuple[tuple[str, ...], ...] = (LEGACY_COLUMNS, RESERVED_COLUMNS, COLUMNS)

RDMA_INTERCONNECTS = frozenset(
    {"efa", "infiniband", "gpudirect-tcpx", "gpudirect-tcpxo", "gpudirect-rdma", "tpu-ici", "erdma"}
)


class Offering(NamedTuple):
    """One purchasable instance type in one zone (an immutable named tuple: loading a few
    thousand rows stays cheap; use `offering._replace(field=value)` for a changed copy).

    Attributes:
        provider: cloud registry name (`aws`, `azure`, `gcp`).
        region: region as the provisioning API names it (`us-east-1`).
        zone: zone; on AWS the availability-zone ID (`use1-az4`), the same in every account.
        instance_type: instance/VM size (`p4d.24xlarge`).
        accelerator: normalized accelerator name (`A100`, `A100-80GB`, `H100`).
        accelerator_count: accelerators per instance.
        accelerator_memory_gib: memory per accelerator, GiB; None when unknown.
        form_factor: `SXM`, `PCIe` or None when unknown.
        vcpus: vCPUs per instance; None when unknown.
        memory_gib: host memory per instance, GiB; None when unknown.
        interconnect: node-to-node fabric kind: `efa`, `infiniband`, `gpudirect-*`,
            `tpu-ici` or `ethernet`.
        max_efa_interfaces: EFA interfaces the instance type accepts (AWS; 0 elsewhere).
        network_gbps: advertised network bandwidth, Gbps; None when unknown.
        on_demand_usd_per_hour: on-demand price of the whole instance, USD/hour; None
            when the catalog has no price (never 0).
        spot_usd_per_hour: spot price of the whole instance, USD/hour; None when unknown.
        catalog_date: ISO date the price row was produced.
        source: where the price came from (`skypilot-catalog`, `aws-pricing-api`, ...).
        reserved_1y_usd_per_hour: effective USD/hour of a 1-year reserved term (AWS:
            standard, No Upfront, from the Pricing API); None when not fetched.
        reserved_3y_usd_per_hour: the same for a 3-year term; None when not fetched.
        currency: the currency the provider lists the price in (`USD`, `CNY`).
        on_demand_native: on-demand price in `currency` per hour (None for USD rows; the
            USD columns then hold the conversion at the catalog's recorded rate).
        spot_native: spot price in `currency` per hour, or None.
        price_note: why the price may be off (e.g. `estimate: third-party snapshot`), or "".
        platform: where the job runs: `vm` (the cloud's own nodes, every catalog file's rows)
            or a managed platform of the cloud (`clouds.platforms`: `sagemaker`, `azureml`),
            whose rows `profiles.catalog.platform_rows` derives; not a catalog-file column.
    """

    provider: str
    region: str
    zone: str
    instance_type: str
    accelerator: str
    accelerator_count: int
    accelerator_memory_gib: float | None
    form_factor: str | None
    vcpus: float | None
    memory_gib: float | None
    interconnect: str
    max_efa_interfaces: int
    network_gbps: float | None
    on_demand_usd_per_hour: float | None
    spot_usd_per_hour: float | None
    catalog_date: str
    source: str = "skypilot-catalog"
    reserved_1y_usd_per_hour: float | None = None
    reserved_3y_usd_per_hour: float | None = None
    currency: str = "USD"
    on_demand_native: float | None = None
    spot_native: float | None = None
    price_note: str = ""
    platform: str = "vm"

    @property
    def rdma(self) -> bool:
        """True when the instance has an RDMA-class fabric (EFA, InfiniBand, GPUDirect)."""
        return self.interconnect in RDMA_INTERCONNECTS

    def price(self, purchase: str) -> float | None:
        """Whole-instance USD/hour for `purchase` (`spot` or `on-demand`); None if unpriced."""
        return self.spot_usd_per_hour if purchase == "spot" else self.on_demand_usd_per_hour


def priced_in_cny(on_demand: float | None, spot: float | None = None, **row: Any) -> Offering:
    """A row of a China-site price list: prices in CNY per hour (`on_demand`, `spot`, whole
    instance), the USD columns empty until the loader converts them at the recorded rate
    (`profiles.catalog.rates`), and no EFA (an AWS fabric).

    Args:
        on_demand: pay-as-you-go CNY/hour, or None when unpriced.
        spot: spot CNY/hour, or None.
        row: every other `Offering` field (hardware, `catalog_date`, `source`, `price_note`).
    """
    return Offering(
        **row,
        max_efa_interfaces=0,
        on_demand_usd_per_hour=None,
        spot_usd_per_hour=None,
        currency="CNY",
        on_demand_native=on_demand,
        spot_native=spot,
    )
