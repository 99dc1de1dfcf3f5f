"""The "did you mean" list (`profiles.explain.nearest`) reads each row's failures only as far as
can change it, and answers exactly as ranking every row by all its failures does."""

import functools
import random

import pytest

from profiles.explain import _HARD, CONSTRAINTS, _cheapest_price, nearest
from tests.profiles.offering_factory import offering


def every_failure_ranked(offerings, failures, limit):
    """The list ranked from every row's complete failures (what `nearest` must equal)."""
    scored = sorted(
        (len(f), bool(_HARD & set(f)), _cheapest_price(o), o.instance_type, o.zone, o, f)
        for o in offerings
        if (f := list(failures(o)))
    )
    seen = {}
    for *_, o, f in scored:
        seen.setdefault(o.instance_type, f)
        if len(seen) == limit:
            break
    return list(seen.values())


@functools.cache
def rows(seed: int) -> dict:
    """40 rows of 8 instance types in 4 zones, each failing 0-6 constraints (in order)."""
    rng = random.Random(seed)
    table = {}
    for i in range(40):
        row = offering(
            instance_type=f"type-{rng.randrange(8)}", zone=f"zone-{i % 4}", on_demand_usd_per_hour=rng.choice([2, 3])
        )
        table[row] = sorted(rng.sample(range(len(CONSTRAINTS)), rng.randrange(7)))
    return {row: [CONSTRAINTS[c] for c in failed] for row, failed in table.items()}


@pytest.mark.parametrize("limit", [1, 2, 3, 5])
def test_the_list_equals_ranking_every_row_by_all_its_failures(limit):
    for seed in range(30):
        table = rows(seed)
        got = nearest(table, lambda o, t=table: iter(t[o]), limit)
        assert [failed for _, failed in got] == every_failure_ranked(table, table.__getitem__, limit), seed


def test_a_row_failing_more_than_the_shown_rows_is_read_no_further():
    shown = [offering(instance_type=f"near-{i}") for i in range(3)]
    far = offering(instance_type="far")
    table = {**{row: ["region"] for row in shown}, far: ["provider", "region", "price", "job", "run_time"]}
    read = {row: 0 for row in table}

    def failures(o):
        for name in table[o]:
            read[o] += 1
            yield name

    near = nearest(table, failures)
    assert [label.split()[1] for label, _ in near] == ["near-0", "near-1", "near-2"]
    assert read[far] == 2 and all(read[row] == 1 for row in shown)
