"""Fixtures for the Huawei Cloud component tests: an example config and a runner that
builds `HuaweicloudGpuCluster("c", config)` under the shared `TrainstackMocks`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from components.contract import OUTPUT_NAMES, ClusterConfig
from trainstack.mocks import RecordingMonitor, TrainstackMocks

# 2 x p3.16xlarge.8 (8 x A100 80 GB, china-clouds.md section 1.3), spot, 4,800 GiB SFS Turbo.
EXAMPLE: dict[str, Any] = {
    "provider": "huaweicloud",
    "region": "cn-north-4",
    "zone": "cn-north-4a",
    "instance_type": "p3.16xlarge.8",
    "accelerator": "A100-80GB",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "spot",
    "interconnect": "none",
    "hours": 72,
    "usd_per_hour": 48.0,
    "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 250},
}


class CallRecordingMocks(TrainstackMocks):
    """`TrainstackMocks` that also keeps every invoke as `(token, args)`."""

    def __init__(self) -> None:
        super().__init__(region="cn-north-4")
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, args):  # noqa: D102 (same contract as the base class)
        self.calls.append((args.token, dict(args.args)))
        return super().call(args)


class Monitor(RecordingMonitor):
    """`RecordingMonitor` that also keeps each resource's `ignore_changes` by name."""

    def __init__(self, mocks: TrainstackMocks) -> None:
        super().__init__(mocks)
        self.ignore_changes: dict[str, list[str]] = {}

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        self.ignore_changes[request.name] = list(request.ignoreChanges)
        return super().RegisterResource(request)


def install_mocks() -> tuple[CallRecordingMocks, Monitor]:
    """Point the Pulumi runtime at fresh mocks; return them and the recording monitor."""
    mocks = CallRecordingMocks()
    monitor = Monitor(mocks)
    pulumi.runtime.set_mocks(
        mocks, project="trainstack", stack="test", preview=False, monitor=monitor
    )
    return mocks, monitor


@pytest.fixture
def hw_config() -> Callable[..., ClusterConfig]:
    """A factory: the example Huawei config with keyword overrides."""
    return lambda **overrides: ClusterConfig.model_validate({**EXAMPLE, **overrides})


@pytest.fixture
def hw_monitor() -> Monitor:
    """Fresh mocks for a test that builds the component itself."""
    return install_mocks()[1]


@pytest.fixture
def hw_run() -> Callable[..., tuple[Any, Monitor, dict[str, Any]]]:
    """Build `HuaweicloudGpuCluster("c", config)` in a fresh run.

    Returns `(mocks, monitor, outputs)`: `mocks.calls` lists the invokes, `monitor.records()`
    the resources, `outputs` the resolved `OUTPUT_NAMES` plus `ssh_private_key`.
    """
    from components.huaweicloud.cluster import HuaweicloudGpuCluster

    names = (*OUTPUT_NAMES, "ssh_private_key")

    def run(config: ClusterConfig) -> tuple[Any, Monitor, dict[str, Any]]:
        mocks, monitor = install_mocks()
        resolved: dict[str, Any] = {}

        @pulumi.runtime.test
        def program() -> Any:
            cluster = HuaweicloudGpuCluster("c", config)
            values = pulumi.Output.all(*[getattr(cluster, key) for key in names])
            return values.apply(lambda v: resolved.update(zip(names, v)))

        program()
        return mocks, monitor, resolved

    return run


@pytest.fixture
def hw_records(hw_run) -> Callable[[ClusterConfig], list[dict[str, Any]]]:
    """Build the cluster in a fresh run and return the recorded resources."""
    return lambda config: hw_run(config)[1].records()
