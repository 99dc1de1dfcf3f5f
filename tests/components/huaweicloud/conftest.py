"""Fixtures for the Huawei Cloud component tests: an example config and a runner that
builds `HuaweicloudGpuCluster("c", config)` under the shared `TrainstackMocks`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.components import harness
from tests.components.harness import CallRecordingMocks, Monitor

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


def install_mocks() -> tuple[CallRecordingMocks, Monitor]:
    """Fresh shared mocks for huaweicloud tests (see tests/components/harness.py)."""
    return harness.install_mocks("cn-north-4")


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

    return lambda config: harness.run_component(HuaweicloudGpuCluster, config, (*OUTPUT_NAMES, "ssh_private_key"))


@pytest.fixture
def hw_records(hw_run) -> Callable[[ClusterConfig], list[dict[str, Any]]]:
    """Build the cluster in a fresh run and return the recorded resources."""
    return lambda config: hw_run(config)[1].records()
