"""The time and interruption model's inputs, in one place measured figures can override.

Everything the estimate assumes about an offering's speed, its fabric and its spot market
is read through this module, so a benchmark (`trainstack bench`, #15) can replace an
assumption with a measurement without touching the model:

    from profiles.cost.inputs import Measured, register_measurements
    register_measurements(lambda offering: Measured(tflops_per_gpu=310.0, source="bench 2026-12-01"))

A registered lookup is asked first for every offering; None (or a None field) falls back
to the sourced defaults below. `clear_measurements()` removes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from profiles.catalog.offering import Offering

# Hours to get a replacement node and reload the checkpoint after a spot interruption, per
# cloud. Unsourced [0.25 h]: no published restart time was collected; the `selfheal` node
# groups (#14) may set per-cloud figures here. A spec's `spot.restart` overrides it.
RESTART_HOURS: dict[str, float] = {}
DEFAULT_RESTART_HOURS = 0.25


def restart_hours(provider: str) -> float:
    """Hours one spot interruption costs beyond lost work, for `provider` (see `RESTART_HOURS`)."""
    return RESTART_HOURS.get(provider, DEFAULT_RESTART_HOURS)


# Expected spot interruptions per node per month (730 h), by (cloud, instance family).
# AWS's Spot Instance Advisor publishes, per instance type and region, the frequency of
# interruption over the trailing month in bands < 5 %, 5-10 %, 10-15 %, 15-20 % and > 20 %
# (pricing-models.md A10); no band for any GPU type was retrieved (the feed is fetched at
# run time), and Azure's eviction-rate bands (Z6) and GCP / the Chinese clouds publish none
# here. So every default is the same conservative assumption, labelled as such: 0.20, the
# floor of the worst AWS band (> 20 %), higher than any rate in the four better bands.
# Per-family rows go in SPOT_INTERRUPTIONS with their source when one is found.
SPOT_INTERRUPTIONS: dict[tuple[str, str], tuple[float, str]] = {}
DEFAULT_SPOT_INTERRUPTIONS = (0.20, "assumed: floor of the Spot Advisor's worst band, > 20 %/month")


def instance_family(instance_type: str) -> str:
    """The family part of an instance type: `p5.48xlarge` -> `p5`, `Standard_ND96asr_v4` ->
    `Standard_ND96asr_v4`, `a3-highgpu-8g` -> `a3-highgpu`, `tpu-v5p-8` -> `tpu-v5p`."""
    if "." in instance_type and not instance_type.startswith("Standard_"):
        return instance_type.split(".", 1)[0]
    head, _, tail = instance_type.rpartition("-")
    return head if head and tail[:1].isdigit() else instance_type


def spot_interruptions(offering: Offering) -> tuple[float, str]:
    """(expected interruptions per node-month, where the figure comes from) for `offering`."""
    measured = _measured(offering)
    if measured is not None and measured.interruptions_per_node_month is not None:
        return measured.interruptions_per_node_month, measured.source
    key = (offering.provider, instance_family(offering.instance_type))
    return SPOT_INTERRUPTIONS.get(key, DEFAULT_SPOT_INTERRUPTIONS)


@dataclass(frozen=True)
class Measured:
    """Measured figures for one offering that replace the model's assumptions.

    Attributes:
        tflops_per_gpu: achieved model TFLOPS per accelerator on the job's kind of work
            (replaces peak x MFU), or None.
        busbw_gbytes_per_s: measured inter-node all-reduce bus bandwidth per GPU, GB/s
            (nccl-tests `busbw`), or None.
        interruptions_per_node_month: measured spot interruptions per node-month, or None.
        source: where the measurement comes from (shown with the row).
    """

    tflops_per_gpu: float | None = None
    busbw_gbytes_per_s: float | None = None
    interruptions_per_node_month: float | None = None
    source: str = "measured"


_lookups: list[Callable[[Offering], Measured | None]] = []


def register_measurements(lookup: Callable[[Offering], Measured | None]) -> None:
    """Ask `lookup(offering)` for measured figures before using any default."""
    _lookups.append(lookup)


def clear_measurements() -> None:
    """Forget every registered lookup (defaults only)."""
    _lookups.clear()


def _measured(offering: Offering) -> Measured | None:
    for lookup in reversed(_lookups):
        found = lookup(offering)
        if found is not None:
            return found
    return None


def measured(offering: Offering) -> Measured | None:
    """The measured figures registered for `offering`, or None."""
    return _measured(offering) if _lookups else None
