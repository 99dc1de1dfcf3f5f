"""Shared fixtures: one Pulumi mocks fixture (the same mocks `trainstack plan` uses) and a
cluster-config factory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from components.contract import ClusterConfig
from tests.clusters import BASE_CLUSTER
from trainstack.mocks import TrainstackMocks


@pytest.fixture
def mocks() -> TrainstackMocks:
    """Install `TrainstackMocks` as the Pulumi engine for one test."""
    mocks = TrainstackMocks(region="us-east-1")
    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False)
    return mocks


@pytest.fixture
def make_config() -> Callable[..., ClusterConfig]:
    """Factory: `make_config(nodes=4, purchase="on-demand")` -> a validated ClusterConfig."""

    def make(**overrides: Any) -> ClusterConfig:
        return ClusterConfig.model_validate({**BASE_CLUSTER, **overrides})

    return make
