"""Turn stored measurements into the time model's inputs (`profiles.cost.inputs`), per offering.

For a job given as work, an offering's speed comes from, best first:
  1. your own runs of that instance type (`measured`);
  2. published figures for that instance type, or for the same GPUs per node (DGX figures
     match cloud types with the same accelerator, count and form factor) (`published`);
  3. the model's estimate from peak FLOPs (`estimated`).
A throughput run becomes achieved TFLOPS per GPU = images/s per GPU x the benchmark
model's training FLOPs per image, so the job's hours scale to its own model by FLOPs.
Image work (`images`, `epochs`, `flops_per_image`) uses ResNet-50 or ViT-B/16 runs;
transformer work (params x tokens, GPU-hours) uses ViT-B/16 runs only: a convolutional
network's utilization says little about a transformer's. Multi-node jobs take the measured
inter-node bus bandwidth (nccl-tests, all nodes or a pair) of the instance type. A row whose
throughput is estimated is `estimated`, whatever else was measured; a job given as `hours`
is `given`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from profiles.catalog.offering import Offering
from profiles.cost import inputs

if TYPE_CHECKING:  # the schema (pydantic models) loads only when a job given as work needs it
    from profiles.measurements.schema import RunResult, Throughput

PROVENANCE_ORDER = ("measured", "published", "estimated")


@dataclass(frozen=True)
class MeasuredSpeed(inputs.Measured):
    """`Measured` figures plus where their class comes from: `measured`, `published`,
    `estimated` (no throughput figure applies) or `given` (the spec gives hours)."""

    provenance: str = "measured"


def _specificity(result: RunResult, offering: Offering) -> int | None:
    """0: the same instance type; 1: the same GPUs per node (hardware-level figure); None: no match."""
    if result.instance_type is not None:
        same = (result.provider, result.instance_type) == (offering.provider, offering.instance_type)
        return 0 if same else None
    if (result.accelerator, result.accelerator_count) != (offering.accelerator, offering.accelerator_count):
        return None
    return 1 if result.form_factor in (None, offering.form_factor) else None


def _key(result: RunResult, specificity: int) -> tuple:
    """Own runs first, then the most specific, then the newest."""
    newest = -(result.started.timestamp() if result.started else 0.0)
    return (PROVENANCE_ORDER.index(result.provenance), specificity, newest)


def best_throughput(
    results: Iterable[RunResult], offering: Offering, models: tuple[str, ...]
) -> tuple[Throughput, RunResult] | None:
    """The throughput run that best describes `offering` for `models` (first preferred), or None.
    Synthetic data and fewer nodes are preferred: compute speed, not the data path or fabric."""
    found = []
    for result in results:
        specificity = _specificity(result, offering)
        if specificity is None:
            continue
        for run in result.throughput:
            if run.model in models:
                found.append(
                    (
                        _key(result, specificity),
                        models.index(run.model),
                        run.data != "synthetic",
                        run.nodes,
                        run,
                        result,
                    )
                )
    return min(found, key=lambda f: f[:4])[4:] if found else None


def best_busbw(results: Iterable[RunResult], offering: Offering) -> tuple[float, RunResult] | None:
    """The all-reduce bandwidth between nodes (GB/s per node, `throughput.node_busbw` of the
    run's peak per-rank busbw) measured on `offering`'s instance type, or None."""
    from profiles.cost.throughput import node_busbw

    found = [
        (_key(r, 0), node_busbw(b.peak_busbw_gbs, b.ranks, b.nodes), r)
        for r in results
        if _specificity(r, offering) == 0
        for b in r.busbw
        if b.scope != "node" and b.nodes > 1 and b.ranks > 1
    ]
    return min(found, key=lambda f: f[0])[1:] if found else None


def speed_lookup(spec, results: tuple[RunResult, ...]) -> Callable[[Offering], MeasuredSpeed | None]:
    """The lookup to register with `profiles.cost.inputs` for `spec` (a `WorkloadSpec`)."""
    if spec.work is None:
        given = MeasuredSpeed(source="hours given by the spec", provenance="given")
        return lambda offering: given
    models = ("resnet50", "vit_b16") if spec.work.images is not None else ("vit_b16",)

    def lookup(offering: Offering) -> MeasuredSpeed | None:
        run = best_throughput(results, offering, models)
        fabric = best_busbw(results, offering) if spec.nodes > 1 else None
        if run is None and fabric is None:
            return None
        parts, classes = [], []
        if run is not None:
            throughput, source = run
            parts.append(
                f"{throughput.model} {throughput.images_per_s_per_gpu:,.0f} images/s per GPU ({_origin(source)})"
            )
            classes.append(source.provenance)
        if fabric is not None:
            parts.append(f"all-reduce {fabric[0]:.1f} GB/s per node ({_origin(fabric[1])})")
            classes.append(fabric[1].provenance)
        tflops = run[0].images_per_s_per_gpu * run[0].flops_per_image / 1e12 if run else None
        provenance = max(classes, key=PROVENANCE_ORDER.index) if run else "estimated"
        return MeasuredSpeed(
            tflops_per_gpu=tflops,
            busbw_gbytes_per_s=fabric[0] if fabric else None,
            source="; ".join(parts),
            provenance=provenance,
        )

    return lookup


def _origin(result: RunResult) -> str:
    if result.provenance == "published":
        return f"published: {result.source.split(' ')[0]}"
    return f"measured {result.started:%Y-%m-%d}" if result.started else "measured"


def use_measurements(spec, results: tuple[RunResult, ...]) -> None:
    """Make the time model read `results` for `spec` (replaces any registered lookup)."""
    inputs.clear_measurements()
    inputs.register_measurements(speed_lookup(spec, results))


def use_store(spec, project: Path | None) -> None:
    """`use_measurements` with the store of `project` (published seeds + imports); a job
    given as hours reads no store.

    Raises:
        StoreError: a stored results file is invalid (names it).
    """
    if spec.work is None:
        use_measurements(spec, ())
        return
    from profiles.measurements.store import load_store

    use_measurements(spec, load_store(project))


def speed_of(offering: Offering) -> str:
    """The class of the speed the model used for `offering`: measured, published, estimated or given."""
    found = inputs.measured(offering)
    return getattr(found, "provenance", "measured") if found is not None else "estimated"
