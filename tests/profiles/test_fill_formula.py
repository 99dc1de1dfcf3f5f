"""The spot fallback's on-demand gap fill (an upper bound): hand-computed cases."""

from __future__ import annotations

import pytest

from profiles.cost.pricing import fill_upper_usd


@pytest.mark.parametrize(
    ("hours", "nodes", "rate", "on_demand", "spot", "usd"),
    [
        # 100 h x 2 nodes x 0.73 / 730 = 0.2 interruptions; each filled at $20/h over 50 h
        (100, 2, 0.73, 32.0, 12.0, 200.0),
        (100, 2, 0.0, 32.0, 12.0, 0.0),  # spot never runs short: no fill
        (10, 4, 7.3, 10.0, 10.0, 0.0),  # no premium over spot: the fill costs nothing extra
        (10, 4, 7.3, 10.0, 12.0, 0.0),  # spot dearer than on-demand: never negative
        (730, 1, 1.0, 3.0, 1.0, 730.0),  # one interruption, $2/h premium over half of 730 h
    ],
)
def test_fill_upper_bound(hours, nodes, rate, on_demand, spot, usd):
    assert fill_upper_usd(hours, nodes, rate, on_demand, spot) == pytest.approx(usd)
