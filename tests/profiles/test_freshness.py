"""How old a cloud's prices are: one warning per cloud, never per row (profiles.catalog.freshness)."""

import datetime as dt

import pytest

from profiles.catalog.freshness import STALE_AFTER_DAYS, cloud_ages, observed_on, stale_warnings, unknown_date
from profiles.catalog.offering import Offering

TODAY = dt.date(2026, 12, 1)


def row(provider: str, date: str, zone: str = "z1") -> Offering:
    return Offering(provider, "r", zone, "t", "A100", 8, 40.0, "SXM", 96.0, 1152.0, "efa", 4, 400.0, 10.0, None, date)


def test_unknown_date_names_the_extraction_day_and_is_not_a_date():
    assert unknown_date("2026-12-01") == "unknown, extracted on 2026-12-01"
    assert observed_on(unknown_date("2026-12-01")) is None
    assert observed_on("2026-11-30") == dt.date(2026, 11, 30)
    assert observed_on("") is None and observed_on("soon") is None


@pytest.mark.parametrize(
    ("dates", "warned"),
    [
        pytest.param(["2026-09-02"], False, id="90-days-fresh"),
        pytest.param(["2026-09-01"], True, id="91-days-stale"),
        pytest.param(["2026-11-30", "2026-11-29"], False, id="all-recent"),
        pytest.param(["2026-11-30", unknown_date("2026-12-01")], True, id="one-unknown-row"),
        pytest.param(["2026-11-30", "2025-01-01"], True, id="one-old-row"),
    ],
)
def test_a_cloud_is_stale_when_any_row_is_older_than_90_days_or_undated(dates, warned):
    assert STALE_AFTER_DAYS == 90
    (age,) = cloud_ages([row("aws", d, zone=f"z{i}") for i, d in enumerate(dates)]).values()
    assert age.stale(TODAY) is warned
    assert bool(age.warning(TODAY)) is warned


def test_one_line_per_cloud_with_counts_dates_and_the_refresh_command():
    rows = [row("aws", unknown_date("2026-12-01"), z) for z in ("a", "b", "c")]
    rows += [row("alicloud", "2024-12-30"), row("alicloud", "2023-07-21", "b"), row("gcp", "2026-11-30")]
    assert stale_warnings(rows, today=TODAY) == [
        "warning: alicloud prices are observed as early as 2023-07-21 (1229 days ago), older than 90 days or of "
        "unknown age; refresh with `trainstack catalog refresh --provider alicloud`",
        "warning: aws prices are of unknown date (3 of 3 rows; source snapshot undated, extracted on 2026-12-01), "
        "older than 90 days or of unknown age; refresh with `trainstack catalog refresh --provider aws`",
    ]  # gcp's one-day-old prices earn no line
    assert stale_warnings(rows, providers=("gcp",), today=TODAY) == []
    mixed = [row("azure", unknown_date("2026-11-29")), row("azure", "2025-06-01", "b")]
    (line,) = stale_warnings(mixed, today=TODAY)
    assert line.startswith(
        "warning: azure prices are of unknown date (1 of 2 rows; source snapshot undated, "
        "extracted on 2026-11-29) and observed as early as 2025-06-01 (548 days ago)"
    )


def test_a_refreshed_cloud_dated_today_is_not_warned_about():
    assert stale_warnings([row("aws", TODAY.isoformat())], today=TODAY) == []
