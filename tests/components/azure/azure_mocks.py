"""Pulumi mocks and the example config for the Azure component tests.

The shared `trainstack.plan.mocks.TrainstackMocks` answers Azure resources (ARM ids, names,
AMLFS `clientInfo`, generated SSH keys; see `clouds/azure/mock.py`). Tests reach them
through the fixtures in `conftest.py`.
"""

from __future__ import annotations

from typing import Any

import pulumi

from clouds.azure.mock import MGS_ADDRESS, PRIVATE_KEY, PUBLIC_KEY, SUBSCRIPTION  # noqa: F401
from trainstack.plan.mocks import RecordingMonitor, TrainstackMocks

EXAMPLE = {
    "provider": "azure",
    "region": "eastus",
    "zone": "eastus",
    "instance_type": "Standard_ND96asr_v4",
    "accelerator": "A100",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "spot",
    "interconnect": "rdma",
    "hours": 72,
    "usd_per_hour": 55.0,
    "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 250},
}


class OptionsMonitor(RecordingMonitor):
    """A `RecordingMonitor` that also keeps each resource's replacement options.

    `options[name]` is `{"replaceOnChanges": [...], "deleteBeforeReplace": bool}` for the
    resource with that logical name (the shared records carry inputs and `protect` only).
    """

    def __init__(self, mocks: TrainstackMocks) -> None:
        super().__init__(mocks)
        self.options: dict[str, dict[str, Any]] = {}

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Keep the request's replacement options, then record it as the parent does."""
        self.options[request.name] = {
            "replaceOnChanges": list(request.replaceOnChanges),
            "deleteBeforeReplace": bool(request.deleteBeforeReplace),
        }
        return super().RegisterResource(request)


def install_mocks() -> OptionsMonitor:
    """Point the Pulumi runtime at fresh shared mocks and return the recording monitor."""
    mocks = TrainstackMocks(region="eastus")
    monitor = OptionsMonitor(mocks)
    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False, monitor=monitor)
    return monitor
