"""A build helper for the GCP component tests (imported by the test modules).

The shared `trainstack.plan.mocks.TrainstackMocks` answers GCP resources and invokes (NIC IPs,
self links, service-account emails, Filestore addresses, Lustre mount points, TPU
endpoints, getProject; see `clouds/gcp/mock.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from clouds.gcp.mock import GCP_PROJECT_ID
from tests.clusters import example
from tests.shared_runs import shared
from trainstack.plan.mocks import RecordingMonitor, TrainstackMocks

PROJECT_ID = GCP_PROJECT_ID


# 2 x a3-highgpu-8g spot and one tpu-v5p-8 slice (tests/fixtures/clusters/gcp.yaml, gcp-tpu.yaml).
EXAMPLE: dict[str, Any] = example("gcp")
TPU_EXAMPLE: dict[str, Any] = example("gcp-tpu")


def make_config(base: dict[str, Any] | None = None, **changes: Any) -> ClusterConfig:
    """A `ClusterConfig` from `base` (the A3 High example by default) with `changes`."""
    return ClusterConfig.model_validate({**(base or EXAMPLE), **changes})


class Plan:
    """What one component build registered: outputs, resources and their records."""

    def __init__(self, outputs: dict[str, Any], monitor: RecordingMonitor, name: str) -> None:
        self.outputs = outputs
        self.records = monitor.records()
        self.registered_outputs = monitor.registered_outputs.get(name, {})

    def of_type(self, token: str) -> list[dict[str, Any]]:
        """Records of one resource type, in natural name order."""
        return [r for r in self.records if r["type"] == token]

    def named(self, name: str) -> dict[str, Any]:
        """The record with this logical name."""
        return next(r for r in self.records if r["name"] == name)


def build(config: ClusterConfig, name: str = "train", check: Callable | None = None) -> Plan:
    """Build `GcpGpuCluster(name, config)` under fresh mocks inside `@pulumi.runtime.test`.

    Args:
        config: the cluster config.
        name: the component name.
        check: optional `check(outputs)` run inside the program, on the resolved outputs.
            Without one, a config built before in the session is answered from that build
            (`tests.shared_runs.shared`).
    """
    if check is None:  # a check runs inside the program: only then is a fresh run needed
        return shared("gcp", f"{name}:{config.model_dump_json()}", lambda: build(config, name, check=lambda _: None))
    from components.gcp.cluster import GcpGpuCluster

    mocks = TrainstackMocks(config.region)
    monitor = RecordingMonitor(mocks)
    pulumi.runtime.set_mocks(mocks, preview=False, monitor=monitor)
    resolved: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> pulumi.Output:
        cluster = GcpGpuCluster(name, config)

        def capture(values: dict[str, Any]) -> None:
            resolved.update(values)
            if check:
                check(values)

        return pulumi.Output.all(**{key: getattr(cluster, key) for key in OUTPUT_NAMES}).apply(capture)

    program()
    return Plan(resolved, monitor, name)
