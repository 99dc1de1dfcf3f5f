"""Build one component under the shared mocks and record what it registers (test helper).

Used by the provider test folders' fixtures: `run_component(cls, config, names, region)`
returns the invokes, the recording monitor and the resolved outputs.
"""

from __future__ import annotations

from typing import Any

import pulumi

from clouds.contract import ClusterConfig
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
    """`RecordingMonitor` that also keeps each resource's `ignore_changes` and explicit
    `depends_on` (logical names) by name."""

    def __init__(self, mocks: TrainstackMocks) -> None:
        super().__init__(mocks)
        self.ignore_changes: dict[str, list[str]] = {}
        self.depends_on: dict[str, list[str]] = {}

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        self.ignore_changes[request.name] = list(request.ignoreChanges)
        self.depends_on[request.name] = sorted(urn.split("::")[-1] for urn in request.dependencies)
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
