"""Recorded price-API pages (tests/profiles/fixtures/<provider>/), read as the API sent them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from profiles.catalog.offering import COLUMNS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# The catalog columns that describe the hardware (accelerator .. network_gbps): a price
# refresh must leave them as the committed catalog has them.
HARDWARE = COLUMNS[COLUMNS.index("accelerator") : COLUMNS.index("network_gbps") + 1]


def page_bytes(provider: str, name: str) -> bytes:
    """The raw bytes of a recorded page."""
    return (FIXTURES / provider / name).read_bytes()


def page_json(provider: str, name: str) -> dict:
    """A recorded page, decoded."""
    return json.loads(page_bytes(provider, name))


def cut_short(body: bytes, keep: int) -> dict:
    """`responses.add` arguments for a transfer that stops after `keep` bytes although the
    headers announce the whole body (the connection broke mid-page)."""
    return {"body": body[:keep], "headers": {"Content-Length": str(len(body))}, "auto_calculate_content_length": False}


def credentials(**variables: str):
    """An autouse fixture for a test module: these (made-up) credentials in the environment of
    each of its tests."""

    @pytest.fixture(autouse=True)
    def fake_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
        for name, value in variables.items():
            monkeypatch.setenv(name, value)

    return fake_credentials
