"""An HTTP replayer for the recorded price-API pages (see recorded_pages.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import responses


@pytest.fixture
def http() -> Iterator[responses.RequestsMock]:
    """Replays registered pages to `requests`; fails if a registered page is never asked for."""
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        yield mock
