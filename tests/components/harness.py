"""Build one component under the shared mocks and record what it registers (test helper).

Used by the provider test folders: `run_component(cls, config, names)` returns the invokes,
the recording monitor and the resolved outputs; `build_plan` wraps them in a `Plan`;
`cloud_fixtures` gives a cloud's test folder its `<prefix>_config`, `_monitor`, `_run` and
`_records` fixtures; `by_type` / `one` pick records.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pulumi
import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.clusters import example_config
from trainstack.plan.mocks import RecordingMonitor, TrainstackMocks


class CallRecordingMocks(TrainstackMocks):
    """`TrainstackMocks` that also keeps every invoke as `(token, args)`."""

    def __init__(self, region: str, zone: str | None = None) -> None:
        super().__init__(region=region, zone=zone)
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, args):  # noqa: D102 (same contract as the base class)
        self.calls.append((args.token, dict(args.args)))
        return super().call(args)


class Monitor(RecordingMonitor):
    """`RecordingMonitor` that also keeps, by logical name, each resource's `ignore_changes`,
    explicit `depends_on` (logical names) and replacement `options`
    (`{"replaceOnChanges": [...], "deleteBeforeReplace": bool}`)."""

    def __init__(self, mocks: TrainstackMocks) -> None:
        super().__init__(mocks)
        self.ignore_changes: dict[str, list[str]] = {}
        self.depends_on: dict[str, list[str]] = {}
        self.options: dict[str, dict[str, Any]] = {}
        self.retained: dict[str, bool] = {}  # retain_on_delete

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        self.ignore_changes[request.name] = list(request.ignoreChanges)
        self.depends_on[request.name] = sorted(urn.split("::")[-1] for urn in request.dependencies)
        self.retained[request.name] = bool(request.retainOnDelete)
        self.options[request.name] = {
            "replaceOnChanges": list(request.replaceOnChanges),
            "deleteBeforeReplace": bool(request.deleteBeforeReplace),
        }
        return super().RegisterResource(request)


def install_mocks(region: str, zone: str | None = None) -> tuple[CallRecordingMocks, Monitor]:
    """Point the Pulumi runtime at fresh mocks; return them and the recording monitor."""
    mocks = CallRecordingMocks(region, zone)
    monitor = Monitor(mocks)
    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False, monitor=monitor)
    return mocks, monitor


def run_component(cls: type, config: ClusterConfig, names: tuple[str, ...]) -> tuple[CallRecordingMocks, Monitor, dict]:
    """Build `cls("c", config)` in a fresh run; return (mocks, monitor, resolved `names`)."""
    mocks, monitor = install_mocks(config.region, config.zone)
    resolved: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> Any:
        cluster = cls("c", config)
        values = pulumi.Output.all(*[getattr(cluster, key) for key in names])
        return values.apply(lambda v: resolved.update(zip(names, v, strict=False)))

    program()
    return mocks, monitor, resolved


@dataclass(frozen=True)
class Invokes:
    """The invokes one build made (`CallRecordingMocks.calls`), kept after the run."""

    calls: list[tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Recorded:
    """What one build's `Monitor` kept, without the live runtime objects, so that a build can
    be answered from an earlier one (`tests.shared_runs.shared`)."""

    recorded: list[dict[str, Any]]
    registered_outputs: dict[str, dict[str, Any]]
    ignore_changes: dict[str, list[str]]
    depends_on: dict[str, list[str]]
    options: dict[str, dict[str, Any]]
    retained: dict[str, bool]

    @classmethod
    def of(cls, monitor: Monitor) -> Recorded:
        return cls(
            monitor.records(),
            monitor.registered_outputs,
            monitor.ignore_changes,
            monitor.depends_on,
            monitor.options,
            monitor.retained,
        )

    def records(self) -> list[dict[str, Any]]:
        """The recorded resources, sorted as `RecordingMonitor.records` sorts them."""
        return self.recorded


class Plan:
    """What one component build registered: outputs, records and invokes."""

    def __init__(self, outputs: dict[str, Any], monitor: RecordingMonitor, mocks: CallRecordingMocks) -> None:
        self.outputs = outputs
        self.records = monitor.records()
        self.registered_outputs = monitor.registered_outputs.get("c", {})
        self.calls = mocks.calls

    def of_type(self, token: str) -> list[dict[str, Any]]:
        """Records of one resource type, in natural name order."""
        return [r for r in self.records if r["type"] == token]

    def named(self, name: str) -> dict[str, Any]:
        """The record with this logical name."""
        return next(r for r in self.records if r["name"] == name)


def build_plan(cls: type, config: ClusterConfig, names: tuple[str, ...]) -> Plan:
    """Build `cls("c", config)` in a fresh run and return what it registered; a build of the
    same component (`cls` may be a `functools.partial`), config and names earlier in the
    session answers instead, as a copy (`tests.shared_runs.shared`)."""
    from tests.shared_runs import shared

    def fresh() -> Plan:
        mocks, monitor, resolved = run_component(cls, config, names)
        return Plan(resolved, monitor, mocks)

    return shared("component", f"{cls!r}:{names}:{config.model_dump_json()}", fresh)


def by_type(records: list[dict[str, Any]], typ: str) -> list[dict[str, Any]]:
    """The records of resource type `typ`, in the order given."""
    return [record for record in records if record["type"] == typ]


def one(records: list[dict[str, Any]], typ: str) -> dict[str, Any]:
    """The one record of type `typ`; fails the test when there are none or several."""
    found = by_type(records, typ)
    assert len(found) == 1, f"expected one {typ}, got {len(found)}"
    return found[0]


def cloud_fixtures(prefix: str, example: str, component: str) -> tuple[Any, Any, Any, Any]:
    """The four fixtures of one cloud's component tests, named after `prefix`:

    - `<prefix>_config`: a factory, the example config `example` (tests/fixtures/clusters)
      with keyword overrides;
    - `<prefix>_monitor`: fresh mocks for a test that builds the component itself;
    - `<prefix>_run`: builds `component` ("module:Class") as `Class("c", config)` and returns
      `(invokes, recorded, outputs)` (`invokes.calls` the invokes, `recorded.records()` the
      resources, as `Recorded` keeps them, `outputs` the resolved `OUTPUT_NAMES` plus
      `ssh_private_key`); a config built before in the session is answered from that build
      (`tests.shared_runs.shared`: copies);
    - `<prefix>_records`: builds it and returns the recorded resources.
    """
    region = example_config(example).region

    def config() -> Callable[..., ClusterConfig]:
        return lambda **overrides: example_config(example, **overrides)

    def monitor() -> Monitor:
        return install_mocks(region)[1]

    def run() -> Callable[[ClusterConfig], tuple[Invokes, Recorded, dict[str, Any]]]:
        from tests.shared_runs import shared

        module, name = component.split(":")
        cls = getattr(importlib.import_module(module), name)

        def fresh(config: ClusterConfig) -> tuple[Invokes, Recorded, dict[str, Any]]:
            mocks, monitor, outputs = run_component(cls, config, (*OUTPUT_NAMES, "ssh_private_key"))
            return Invokes(mocks.calls), Recorded.of(monitor), outputs

        return lambda config: shared("cloud-run", f"{component}:{config.model_dump_json()}", lambda: fresh(config))

    def records(request: pytest.FixtureRequest) -> Callable[[ClusterConfig], list[dict[str, Any]]]:
        build = request.getfixturevalue(f"{prefix}_run")
        return lambda config: build(config)[1].records()

    return tuple(  # type: ignore[return-value]
        pytest.fixture(name=f"{prefix}_{fixture.__name__}")(fixture) for fixture in (config, monitor, run, records)
    )


def check_tree_and_tags(
    records: list[dict[str, Any]],
    token: str,
    untaggable: set[str],
    tags: dict[str, str],
    tags_of: Callable[[Any], dict[str, str]] = dict,
) -> set[str]:
    """Check the component's tree and tags: the component `c` (type `token`) is the one root and
    every other record its child; no provider resource is created; each child of a type outside
    `untaggable` carries exactly `tags` (as `tags_of` reads its `tags` input), the others no
    `tags` input at all.

    Returns:
        The children's resource types, for the caller's own checks.
    """
    component = one(records, token)
    assert (component["name"], component["parent"]) == ("c", None)
    children = [record for record in records if record is not component]
    assert {record["parent"] for record in children} == {"c"}
    assert not [record for record in records if record["type"].startswith("pulumi:providers:")]
    for record in children:
        if record["type"] in untaggable:
            assert "tags" not in record["inputs"], record["name"]
        else:
            assert tags_of(record["inputs"]["tags"]) == tags, record["name"]
    return {record["type"] for record in children}
