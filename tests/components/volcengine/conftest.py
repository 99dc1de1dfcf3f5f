"""Fixtures for the Volcengine component tests: an example config and a runner that
builds `VolcengineGpuCluster("c", config)` under the shared `TrainstackMocks`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.components import harness
from tests.components.harness import CallRecordingMocks, Monitor

# 2 x hpcpni2 nodes (A100/A800 class with RDMA, china-clouds.md section 1.4), spot, RDMA,
# 4,800 GiB vePFS Advance_100 (100 MB/s per TiB). The size suffix `28xlarge` is
# illustrative: section 1.4 names the family only, no sizes or GPU counts.
EXAMPLE: dict[str, Any] = {
    "provider": "volcengine",
    "region": "cn-beijing",
    "zone": "cn-beijing-a",
    "instance_type": "ecs.hpcpni2.28xlarge",
    "accelerator": "A800",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "spot",
    "interconnect": "rdma",
    "hours": 72,
    "usd_per_hour": 44.0,
    "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 100},
}


def install_mocks() -> tuple[CallRecordingMocks, Monitor]:
    """Fresh shared mocks for volcengine tests (see tests/components/harness.py)."""
    return harness.install_mocks("cn-beijing")


@pytest.fixture
def vc_config() -> Callable[..., ClusterConfig]:
    """A factory: the example Volcengine config with keyword overrides."""
    return lambda **overrides: ClusterConfig.model_validate({**EXAMPLE, **overrides})


@pytest.fixture
def vc_monitor() -> Monitor:
    """Fresh mocks for a test that builds the component itself."""
    return install_mocks()[1]


@pytest.fixture
def vc_run() -> Callable[..., tuple[Any, Monitor, dict[str, Any]]]:
    """Build `VolcengineGpuCluster("c", config)` in a fresh run.

    Returns `(mocks, monitor, outputs)`: `mocks.calls` lists the invokes, `monitor.records()`
    the resources, `outputs` the resolved `OUTPUT_NAMES` plus `ssh_private_key`.
    """
    from components.volcengine.cluster import VolcengineGpuCluster

    return lambda config: harness.run_component(VolcengineGpuCluster, config, (*OUTPUT_NAMES, "ssh_private_key"))


@pytest.fixture
def vc_records(vc_run) -> Callable[[ClusterConfig], list[dict[str, Any]]]:
    """Build the cluster in a fresh run and return the recorded resources."""
    return lambda config: vc_run(config)[1].records()
