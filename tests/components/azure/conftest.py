"""Fixtures for the Azure component tests (mocks live in `azure_mocks`)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.clusters import example_config
from tests.components.azure.azure_mocks import install_mocks
from tests.components.harness import Monitor, run_component
from tests.shared_runs import shared


@pytest.fixture
def azure_monitor() -> Monitor:
    """Fresh Azure mocks for one test; the monitor's `records()` lists what was registered."""
    return install_mocks()


@pytest.fixture
def azure_config() -> Callable[..., ClusterConfig]:
    """A factory: the example Azure config with keyword overrides."""

    return lambda **overrides: example_config("azure", **overrides)


@dataclass(frozen=True)
class Build:
    """What one run recorded, kept after the run (the `RecordingMonitor` answers it too):
    `records()`, `registered_outputs` and the replacement `options` by logical name."""

    recorded: list[dict[str, Any]]
    registered_outputs: dict[str, dict[str, Any]]
    options: dict[str, dict[str, Any]]

    def records(self) -> list[dict[str, Any]]:
        """The recorded resources, sorted as `RecordingMonitor.records` sorts them."""
        return copy.deepcopy(self.recorded)


@pytest.fixture
def azure_run() -> Callable[[ClusterConfig], tuple[Build, dict[str, Any]]]:
    """A function that builds `AzureGpuCluster("c", config)` in a fresh run.

    It returns what the monitor recorded (`records()`, `registered_outputs`, `options`), read
    after the run has finished, and the cluster's resolved outputs: `OUTPUT_NAMES` plus
    `ssh_private_key`, `admin_username` and `file_system_mount_command`. A config built
    before in the session is answered from that build (`tests.shared_runs.shared`: copies;
    never in tests that use `monkeypatch` or are marked `fresh_runs`).
    """

    def run(config: ClusterConfig) -> tuple[Build, dict[str, Any]]:
        return shared("azure", config.model_dump_json(), lambda: _build(config))

    return run


def _build(config: ClusterConfig) -> tuple[Build, dict[str, Any]]:
    """Build `AzureGpuCluster("c", config)` under fresh mocks; (what was recorded, resolved outputs)."""
    from components.azure.cluster import AzureGpuCluster

    names = (*OUTPUT_NAMES, "ssh_private_key", "admin_username", "file_system_mount_command")
    _, monitor, resolved = run_component(AzureGpuCluster, config, names)
    return Build(monitor.records(), monitor.registered_outputs, monitor.options), resolved


@pytest.fixture
def azure_records(azure_run) -> Callable[[ClusterConfig], list[dict[str, Any]]]:
    """A function that builds `AzureGpuCluster("c", config)` in a fresh run and returns
    the recorded resources (type, name, parent, protect, wire-format inputs)."""
    return lambda config: azure_run(config)[0].records()
