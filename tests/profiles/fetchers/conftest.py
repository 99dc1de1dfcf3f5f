"""HTTP replayers for the recorded price-API pages (see recorded_pages.py): `http` for SDKs on
`requests`, `loopback` (a server on 127.0.0.1) for SDKs on `http.client` or `urllib3`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import responses
from loopback import Replayer, Server


@pytest.fixture
def http() -> Iterator[responses.RequestsMock]:
    """Replays registered pages to `requests`; fails if a registered page is never asked for."""
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        yield mock


@pytest.fixture(scope="module")
def loopback_server() -> Iterator[Server]:
    """One loopback server per test module (see `loopback`)."""
    with Server() as server:
        yield server


@pytest.fixture
def loopback(loopback_server: Server) -> Iterator[Replayer]:
    """Replays registered pages from a loopback server; fails if a request matched no page or
    a registered page is never asked for. Each test has a `Replayer` of its own: nothing it
    expects or receives is seen by another."""
    replayer = loopback_server.replay()
    yield replayer
    replayer.check_done()
