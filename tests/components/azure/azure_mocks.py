"""Pulumi mocks and the example config for the Azure component tests.

The shared `trainstack.plan.mocks.TrainstackMocks` answers Azure resources (ARM ids, names,
AMLFS `clientInfo`, generated SSH keys; see `clouds/azure/mock.py`). Tests reach them
through the fixtures in `conftest.py`.
"""

from __future__ import annotations

from clouds.azure.mock import MGS_ADDRESS, PRIVATE_KEY, PUBLIC_KEY, SUBSCRIPTION  # noqa: F401
from tests.clusters import example
from tests.components import harness
from tests.components.harness import Monitor

# 2 x Standard_ND96asr_v4, spot, 4,800 GiB AMLFS (tests/fixtures/clusters/azure.yaml).
EXAMPLE = example("azure")


def install_mocks() -> Monitor:
    """Point the Pulumi runtime at fresh shared mocks and return the recording monitor (it
    keeps each resource's replacement `options` too, see `tests.components.harness.Monitor`)."""
    return harness.install_mocks("eastus")[1]
