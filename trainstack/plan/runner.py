"""`trainstack plan`: run the real Pulumi program offline under mocks and report the
resource tree, outputs and cost, without the Pulumi CLI or cloud credentials."""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import datetime
import gc
import importlib
import json
import logging
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pulumi
from pulumi.runtime import settings
from pulumi.runtime.stack import run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

from trainstack.plan.cluster_lines import healing_line, job_summary, requested_outside, requested_spec, runtime_line
from trainstack.plan.event_loop import plan_event_loop
from trainstack.plan.mocks import RecordingMonitor, TrainstackMocks
from trainstack.plan.recording import no_alias_urns, no_source_positions
from trainstack.plan.result import PlanError, PlanResult

PROJECT = "trainstack"
STACKS_DIR = "stacks"  # the same folder as `profiles.stack.file.STACKS_DIR`


def run_plan(stack_name: str, project_dir: Path, priced: bool = True) -> PlanResult:
    """Plan a stack: run `project_dir/__main__.py` under mocks with the stack's config.

    Safe to call repeatedly in one process: each run gets a fresh copy of Pulumi's
    context-local settings (config, root stack, monitor), so runs never see each other.

    Args:
        stack_name: stack name; its config is `project_dir/stacks/Pulumi.<stack>.yaml`.
        project_dir: the Pulumi project directory (holds `__main__.py`).
        priced: False leaves the cost empty (`plan --against` prices the old side itself,
            with today's catalog and pricing code; see `trainstack.review.gitref`).

    Returns:
        The recorded resources, outputs and cost.

    Raises:
        PlanError: missing or unreadable stack file, invalid cluster config, a config
            the component rejects, the cloud's SDK extra not installed (names the
            `pip install 'trainstack[<extra>]'`), or an invoke the mocks have no answer for (its token).
    """
    project_dir = Path(project_dir)
    stack_file = project_dir / STACKS_DIR / f"Pulumi.{stack_name}.yaml"
    stack_file_module = _stack_files()  # on call: see `trainstack.review.ref_program`

    try:
        config, cluster = stack_file_module.read_cluster(stack_file)
    except stack_file_module.StackFileError as exc:
        raise PlanError(str(exc)) from None
    program = project_dir / "__main__.py"
    if not program.is_file():
        raise PlanError(f"{program}: Pulumi program not found; run from the project or pass --project-dir")
    context = contextvars.copy_context()
    try:
        with _gc_paused(), no_source_positions(), no_alias_urns(), plan_event_loop():
            resources, outputs, warned = context.run(_run, program, stack_name, config, cluster.region, cluster.zone)
    except ValueError as exc:  # the component's validation: already one line
        raise PlanError(f"{stack_file}: {_first_line(_innermost(exc))}") from None
    except ModuleNotFoundError as exc:  # the cloud's SDK extra is not installed
        if "pip install" not in str(exc):  # the registry's message names the extra; anything else is a bug
            raise
        raise PlanError(f"{stack_file}: {_first_line(exc)}") from None
    except Exception as exc:  # an invoke the mocks cannot answer names its token
        if not str(exc).startswith("invoke of "):
            raise
        raise PlanError(f"{stack_file}: {_first_line(exc)}") from None
    result = PlanResult(
        resources,
        None,
        None,
        outputs,
        hours=cluster.hours,
        region=cluster.region,
        zone=cluster.zone,
        provider=cluster.provider,
        purchase=cluster.purchase,
        instance_type=cluster.instance_type,
        # An older revision's cluster model (`plan --against`) may predate the field.
        deadline_hours=getattr(cluster, "deadline_hours", None),
        healing=healing_line(cluster),
        runtime=runtime_line(cluster),
        job=job_summary(cluster),
        requested_outside=requested_outside(cluster, stack_name),
        requested_spec=requested_spec(cluster, stack_name),
        program_warnings=tuple(warned),
    )
    return with_price(result, cluster) if priced else result


def _stack_files() -> Any:
    """The program's own stack-file module, imported on call: `profiles.stack.file`, or
    `profiles.stack_file` in a revision from before `profiles/` was split into packages (#28),
    so an older revision's stack is read with its own `clouds` (`plan --against`)."""
    try:
        return importlib.import_module("profiles.stack_file")
    except ModuleNotFoundError as exc:
        if exc.name != "profiles.stack_file":
            raise
    return importlib.import_module("profiles.stack.file")


def with_price(result: PlanResult, cluster: Any) -> PlanResult:
    """`result` with the cluster's cost as configured, priced from the current catalog."""
    from clouds.helper_vms import unpriced_hourly
    from profiles.stack.price import price_from_catalog

    price = price_from_catalog(cluster)
    cost = price.cost
    priced = cost is not None and cost.usd_per_hour is not None
    return dataclasses.replace(
        result,
        usd_per_hour=price.total_usd_per_hour,
        usd_compute_per_hour=price.usd_per_hour,
        usd_requests=cost.usd_requests if cost is not None else None,
        cost_text=(cost.hourly_text(), cost.job_text()) if cost is not None and priced else (),
        usd_total=price.usd_total,
        usd_storage=price.usd_storage,
        recorded_usd_per_hour=price.recorded_usd_per_hour,
        price_note=price.note,
        price_caveats=price.caveats + unpriced_hourly(cluster.provider, cluster.region, result.resources),
        price_verified=price.verified,
        price_recorded=not price.verified or getattr(cluster, "reservation", None) is not None,
        uncommitted_usd_per_hour=price.uncommitted_usd_per_hour,
    )


def read_stack_config(stack_file: Path) -> dict[str, Any]:
    """The `config:` map of a Pulumi stack file (read by `profiles.stack.file`).

    Raises:
        PlanError: when the file is missing, not YAML, repeats a key, or lacks `trainstack:cluster`.
    """
    stack_file_module = _stack_files()
    try:
        return stack_file_module.read_config(stack_file)
    except stack_file_module.StackFileError as exc:
        raise PlanError(str(exc)) from None


def pulumi_config_values(config: dict[str, Any]) -> dict[str, str]:
    """Stack config as the engine hands it to a program: strings, objects as JSON.

    Args:
        config: the stack file's `config:` map (`namespace:key` -> value).
    """

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return value
        # A YAML timestamp (a Capacity Block's `ends`) reaches the program as ISO 8601 text.
        return json.dumps(_undisclosed(value), sort_keys=True, default=_iso)

    return {key: encode(_undisclosed(value)) for key, value in config.items()}


SECRET_PLACEHOLDER = "[secret]"


def _undisclosed(value: Any) -> Any:
    """`value` with each encrypted config value (`{secure: v1:...}`, which the engine decrypts
    for a real preview and a plan cannot) as `SECRET_PLACEHOLDER`: the program sees a value in
    its place, marked secret by `Config.get_secret*`, and no plan output ever holds one."""
    if isinstance(value, dict):
        if set(value) == {"secure"}:
            return SECRET_PLACEHOLDER
        return {key: _undisclosed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_undisclosed(item) for item in value]
    return value


def _iso(value: Any) -> str:
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _run(program: Path, stack: str, config: dict[str, Any], region: str, zone: str) -> tuple[list, dict, list[str]]:
    """Run the program in the current (copied) context and return records, outputs and the
    warnings it logged (`pulumi.log.warn`, which the mock engine hands to `logger`).

    The mocks answer lookups from the cluster's own region, zone and config (`gcp:project`)."""
    mocks = TrainstackMocks(region=region, zone=zone, config=config)
    monitor = RecordingMonitor(mocks)
    settings.set_root_resource(None)  # type: ignore[arg-type]  # a fresh Stack per run
    settings.SETTINGS.outputs = set()
    pulumi.runtime.set_all_config(pulumi_config_values(config))
    warned: list[str] = []
    logger = logging.Logger("trainstack.plan.program", logging.WARNING)  # not the root logger's stderr
    logger.addHandler(_Collect(warned))
    pulumi.runtime.set_mocks(mocks, project=PROJECT, stack=stack, preview=True, monitor=monitor, logger=logger)
    resolved: dict[str, Any] = {}

    def body() -> None:
        with _on_sys_path(program.parent):
            runpy.run_path(str(program), run_name="__main__")
        exports = dict(settings.get_root_resource().outputs)  # type: ignore[union-attr]
        outputs: dict[str, Any] | None = _sync_await(pulumi.Output.from_input(exports).future())  # type: ignore[arg-type]
        resolved.update(outputs or {})

    _sync_await(run_pulumi_func(body))
    return monitor.records(), resolved, list(dict.fromkeys(warned))


class _Collect(logging.Handler):
    """Keeps each message logged to it in `into`."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record.getMessage())


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during a plan.

    A plan allocates ~60 short-lived Outputs per node; generation scans over them took
    two thirds of a 1,000-node plan. Reference counting still frees memory meanwhile.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextlib.contextmanager
def _on_sys_path(path: Path) -> Iterator[None]:
    """Put the project directory first on sys.path while its program runs.

    A project that was not importable before (another checkout, a temporary copy) leaves no
    module behind: every module of its packages' names first imported during the run is
    dropped afterwards (a module of this tree imported then may have bound one of the
    project's), so a later plan in this process never runs code from a folder that may be gone."""
    entry = str(path.resolve())
    foreign = entry not in [str(Path(p or ".").resolve()) for p in sys.path]
    loaded = set(sys.modules)
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        sys.path.remove(entry)
        if foreign:
            names = {p.stem for p in path.resolve().iterdir() if p.is_dir() or p.suffix == ".py"}
            for name in set(sys.modules) - loaded:
                if name.split(".")[0] in names:
                    del sys.modules[name]


def _innermost(exc: BaseException) -> BaseException:
    """The error a check raised inside an `apply`, which the SDK wraps ("While processing
    input: ...") once per Output it passes through."""
    while isinstance(exc.__cause__, ValueError):
        exc = exc.__cause__
    return exc


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
