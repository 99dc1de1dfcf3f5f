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


@pytest.fixture
def loopback() -> Iterator[Replayer]:
    """Replays registered pages from a loopback server; fails if a request matched no page or
    a registered page is never asked for."""
    with Server() as replayer:
        yield replayer
        replayer.check_done()
