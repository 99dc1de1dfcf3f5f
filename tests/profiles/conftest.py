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
