"""Fixtures for the decision-side tests: the small checked-in catalog and the real one."""

from pathlib import Path

import pytest

from profiles.catalog.loader import Catalog, load_catalog

FIXTURE_CATALOG = Path(__file__).parent / "fixtures" / "catalog"


@pytest.fixture(scope="session")
def fixture_catalog() -> Catalog:
    """Seven AWS rows and three GCP rows with hand-checkable prices (see fixtures/catalog)."""
    return load_catalog(FIXTURE_CATALOG)


@pytest.fixture(scope="session")
def real_catalog() -> Catalog:
    """The committed multi-cloud catalog built from the SkyPilot extract."""
    return load_catalog()


@pytest.fixture
def no_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    """No node failures (`inputs.FAILURES_PER_ACCELERATOR_HOUR` = 0), for hand-computed
    hours that pin other parts of the model; tests/profiles/test_scale_costs.py pins failures."""
    from profiles.cost import inputs

    monkeypatch.setattr(inputs, "FAILURES_PER_ACCELERATOR_HOUR", 0.0)
