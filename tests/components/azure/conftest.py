"""Fixtures for the Azure component tests (mocks live in `azure_mocks`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.components.azure.azure_mocks import EXAMPLE, RecordingMonitor, install_mocks


@pytest.fixture
def azure_monitor() -> RecordingMonitor:
    """Fresh Azure mocks for one test; the monitor's `records()` lists what was registered."""
    return install_mocks()


@pytest.fixture
def azure_config() -> Callable[..., ClusterConfig]:
    """A factory: the example Azure config with keyword overrides."""

    def make(**overrides: Any) -> ClusterConfig:
        return ClusterConfig.model_validate({**EXAMPLE, **overrides})

    return make


@pytest.fixture
def azure_run() -> Callable[[ClusterConfig], tuple[RecordingMonitor, dict[str, Any]]]:
    """A function that builds `AzureGpuCluster("c", config)` in a fresh run.

    It returns the monitor (`records()`, `registered_outputs`), read after the run has
    finished, and the cluster's resolved outputs: `OUTPUT_NAMES` plus `ssh_private_key`,
    `admin_username` and `file_system_mount_command`.
    """
    from components.azure.cluster import AzureGpuCluster

    names = (*OUTPUT_NAMES, "ssh_private_key", "admin_username", "file_system_mount_command")

    def run(config: ClusterConfig) -> tuple[RecordingMonitor, dict[str, Any]]:
        monitor = install_mocks()
        resolved: dict[str, Any] = {}

        @pulumi.runtime.test
        def program() -> Any:
            cluster = AzureGpuCluster("c", config)
            values = pulumi.Output.all(*[getattr(cluster, key) for key in names])
            return values.apply(lambda v: resolved.update(zip(names, v, strict=False)))

        program()
        return monitor, resolved

    return run


@pytest.fixture
def azure_records(azure_run) -> Callable[[ClusterConfig], list[dict[str, Any]]]:
    """A function that builds `AzureGpuCluster("c", config)` in a fresh run and returns
    the recorded resources (type, name, parent, protect, wire-format inputs)."""
    return lambda config: azure_run(config)[0].records()
