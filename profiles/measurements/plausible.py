"""Is a results file physically possible, and does it name an offering that exists?

`trainstack bench import` stores a run only when it passes these checks, and `resolve` refuses a
stored run that fails the peak check (a file copied into `measurements/` by hand), since one
wrong figure would make every later `resolve` rank that offering first at a made-up cost:

  * the cloud is one trainstack knows (`clouds.registry.NAMES`);
  * the instance type is in the catalog for that cloud (when the catalog lists the cloud's
    offerings at all), with the accelerator and count the file states;
  * a throughput run uses at most the GPUs the run had (nodes x GPUs per node);
  * a throughput run's achieved TFLOPS per GPU (images/s per GPU x training FLOPs per image) is
    at most the accelerator's dense BF16 peak (`facts.performance`, the same peak the time
    model estimates with): model-FLOPs utilization above 1 cannot happen;
  * the run's dates are possible: it finished no earlier than it started, and neither is later
    than now (`clouds.clock.now`: the system clock, or `TRAINSTACK_NOW`) plus `CLOCK_SKEW` for
    a node clock slightly ahead of this machine's.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

from clouds.registry import NAMES
from clouds.words import did_you_mean, listed
from facts.performance import performance
from profiles.catalog.offering import Offering
from profiles.measurements.schema import RunResult

RERUN = "re-parse the run with `trainstack bench parse`"
# How far a run's date may lie ahead of this machine's clock: a node's clock a little ahead
# (NTP keeps cloud VMs within seconds; 10 minutes is a margin chosen here, an assumption).
CLOCK_SKEW = timedelta(minutes=10)


def _aware(moment: datetime) -> datetime:
    """A results file's date with its zone (the schema's dates are UTC; one without a zone is UTC)."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment


def _shown(moment: datetime) -> str:
    """`2026-11-30 14:00:00 UTC` (as given, where UTC would leave the calendar: year 1 at +01:00)."""
    try:
        return f"{moment.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S} UTC"
    except OverflowError:
        return moment.isoformat()


def dates_problem(result: RunResult, now: datetime) -> str | None:
    """Why the run's `started`/`finished` cannot be true, in one line, or None.

    Args:
        result: the run.
        now: the current time, timezone-aware (`clouds.clock.now()`).
    """
    started = _aware(result.started) if result.started else None
    finished = _aware(result.finished) if result.finished else None
    if started and finished and finished < started:
        return (
            f"finished: {_shown(finished)} is before started ({_shown(started)}); "
            f"a run ends after it starts: correct the dates or {RERUN}"
        )
    for field, moment in (("started", started), ("finished", finished)):
        if moment is not None and moment > now + CLOCK_SKEW:
            return (
                f"{field}: {_shown(moment)} is in the future (now {now.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC, "
                f"from the system clock or TRAINSTACK_NOW); a measurement has already run: correct the date or {RERUN}"
            )
    return None


def peak_problem(result: RunResult, accelerator: str | None = None, form_factor: str | None = None) -> str | None:
    """The first throughput run faster than its accelerator's peak, said in one line, or None.

    Args:
        result: the run.
        accelerator, form_factor: the catalog's, when the file does not say (else the file's).
    """
    accelerator = result.accelerator or accelerator
    perf = (
        performance(accelerator, result.form_factor or form_factor, result.instance_type or "") if accelerator else None
    )
    if perf is None:  # no sourced peak: nothing to compare with
        return None
    for i, run in enumerate(result.throughput):
        tflops = run.images_per_s_per_gpu * run.flops_per_image / 1e12
        if tflops > perf.bf16_tflops:
            return (
                f"throughput.{i}.images_per_s_per_gpu: {run.images_per_s_per_gpu:,.0f} images/s x "
                f"{run.flops_per_image / 1e9:,.1f} GFLOPs per image = {tflops:,.0f} TFLOPS per GPU, above the "
                f"{accelerator}'s {perf.bf16_tflops:g} TFLOPS peak (MFU {tflops / perf.bf16_tflops:.2f}, at most 1; "
                f"facts/performance.py {perf.source}): impossible; {RERUN}"
            )
    return None


def import_problem(result: RunResult, offerings: Iterable[Offering]) -> str | None:
    """Why `result` (a measured run that names its provider and instance type) cannot be
    stored, in one line, or None. `offerings` is the loaded catalog of its provider."""
    provider, instance_type = result.provider or "", result.instance_type or ""
    if provider not in NAMES:
        return f"provider: {provider!r} is not a cloud trainstack knows; use one of {listed(NAMES, provider)}"
    known = [o for o in offerings if o.provider == provider]
    rows = [o for o in known if o.instance_type == instance_type]
    if known and not rows:
        near = did_you_mean(instance_type, {o.instance_type for o in known}, f"{provider} types")
        return (
            f"instance_type: the catalog has no {instance_type!r} on {provider} ({near}); "
            f"re-parse the run with `trainstack bench parse ... -s {result.stack or 'STACK'}` so it names the stack's instance type"
        )
    row = next((o for o in rows if o.accelerator == result.accelerator), rows[0] if rows else None)
    if row is not None and result.accelerator and result.accelerator != row.accelerator:
        return f"accelerator: {provider} {instance_type} carries {row.accelerator}, not {result.accelerator}; {RERUN}"
    if row is not None and result.accelerator_count and result.accelerator_count != row.accelerator_count:
        return (
            f"accelerator_count: {provider} {instance_type} has {row.accelerator_count} accelerators, "
            f"not {result.accelerator_count}; {RERUN}"
        )
    per_node = result.accelerator_count or (row.accelerator_count if row else None)
    for i, run in enumerate(result.throughput):
        if per_node and run.gpus > result.nodes * per_node:
            return (
                f"throughput.{i}.gpus: {run.gpus} GPUs on {result.nodes} node(s) of {per_node}; "
                f"at most {result.nodes * per_node}; {RERUN}"
            )
    return peak_problem(result, row.accelerator if row else None, row.form_factor if row else None)
