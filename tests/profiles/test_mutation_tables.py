"""Pure-function tables for `profiles/cost/`, the resolver and the node choice.

Each case pins a value computed by hand (shown beside it) so that a changed operator,
constant or comparison in the function gives a different answer. They are here because
`make mutate` (tests/mutation_equivalents.md) found the function's other tests could not
tell such a change apart. No Pulumi, no catalog load, no file I/O: the whole file runs in
well under a second.
"""

from __future__ import annotations

import pytest

from profiles.cost.checkpoint import write_hours


@pytest.mark.parametrize(
    ("state", "mbps", "hours"),
    [
        (3.6e9, 1.0, 1.0),  # 3.6e9 B at 1e6 B/s = 3,600 s
        (7.2e9, 2.0, 1.0),
        (1.8e12, 500.0, 1.0),  # 1.8e12 / 5e8 = 3,600 s
        (3.6e9, 4.0, 0.25),
    ],
)
def test_write_hours_is_bytes_over_megabytes_per_second(state, mbps, hours):
    assert write_hours(state, mbps) == pytest.approx(hours, rel=1e-12)
