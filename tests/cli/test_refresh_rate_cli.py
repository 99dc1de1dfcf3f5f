"""`trainstack catalog refresh-rate` on a copy of the committed catalog, with the constructed
CFETS answer (tests/profiles/fixtures/cfets/ccpr.json) replayed over HTTP.

The fixture is dated 2026-11-27; `refresh_rate` gets `today` = 2026-11-29 injected, so the tests
do not depend on the calendar."""

import datetime as dt
import functools
import json
from pathlib import Path

import pytest
import responses

import profiles.catalog.loader as loader
import profiles.catalog.rates as rates
from profiles.catalog.fetchers import cfets
from tests.cli import helpers
from tests.cli.helpers import copy_committed_catalog, run

CCPR = Path(__file__).parents[1] / "profiles" / "fixtures" / "cfets" / "ccpr.json"
SOURCE = "CFETS central parity (chinamoney.com.cn ccpr.json)"
BASE_VERSION = json.loads((loader.DATA_DIR / "catalog.json").read_text())["version"].split("+")[0]


@pytest.fixture()
def today(monkeypatch):
    """Pin the day `refresh_rate` measures the rate's age from; returns a setter."""
    original = rates.refresh_rate

    def pin(day: dt.date) -> None:
        monkeypatch.setattr(rates, "refresh_rate", functools.partial(original, today=day))

    pin(dt.date(2026, 11, 29))
    return pin


@pytest.fixture()
def http():
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        yield mock


def one_error_line(result, text, code=2):
    """One `error:` line naming `text` (exit 2 for bad input, 1 when the fetch itself failed), nothing on stdout."""
    helpers.one_error_line(result, text, code)
    assert result.stdout == ""


def test_the_fetched_rate_is_recorded_with_its_date_and_source(data, today, http):
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"recorded 1 USD = 7.1234 CNY as of 2026-11-27 ({SOURCE})\n"
    meta = json.loads((data / "catalog.json").read_text())
    assert meta["exchange_rates"]["CNY"] == {"per_usd": 7.1234, "as_of": "2026-11-27", "source": SOURCE}
    assert meta["version"] == f"{BASE_VERSION}+CNY7.1234@2026-11-27"
    assert loader.load_catalog(data).version == meta["version"]


def test_data_dir_chooses_the_catalog_folder(data, today, http, tmp_path):
    other = copy_committed_catalog(tmp_path / "other")
    before = (data / "catalog.json").read_bytes()
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate", "CNY", "--data-dir", str(other))
    assert result.exit_code == 0, result.output
    assert json.loads((other / "catalog.json").read_text())["exchange_rates"]["CNY"]["per_usd"] == 7.1234
    assert (data / "catalog.json").read_bytes() == before


def usd_price(price: str) -> bytes:
    body = json.loads(CCPR.read_text(encoding="utf-8"))
    next(r for r in body["records"] if r["vrtEName"] == "USD/CNY")["price"] = price
    return json.dumps(body, ensure_ascii=False).encode()


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        pytest.param({"status": 429}, "page 1: throttled (HTTP 429); wait a few minutes", id="throttled"),
        pytest.param(
            {"status": 503, "headers": {"Retry-After": "30"}}, "throttled (HTTP 503); wait 30 s", id="unavailable"
        ),
        pytest.param({"body": b"<html>maintenance</html>"}, "the answer is not valid JSON", id="not-json"),
        pytest.param({"body": usd_price("n/a")}, "the USD/CNY price 'n/a' is not a number", id="bad-price"),
        pytest.param({"body": usd_price("inf")}, "the USD/CNY price inf is not a plausible number", id="inf-price"),
    ],
)
def test_a_failed_fetch_leaves_the_catalog_unchanged(data, today, http, reply, text):
    before = (data / "catalog.json").read_bytes()
    http.add(responses.GET, cfets.URL, **reply)
    result = run("catalog", "refresh-rate")
    one_error_line(result, "error: CFETS central parity (chinamoney.com.cn ccpr.json)", code=1)
    assert text in result.stderr
    assert (data / "catalog.json").read_bytes() == before


def test_an_old_cfets_rate_is_still_recorded(data, today, http):
    today(dt.date(2027, 1, 15))  # 49 days after the fixture's 2026-11-27: old, but newer than the recorded one
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"recorded 1 USD = 7.1234 CNY as of 2026-11-27 ({SOURCE})"]
    assert json.loads((data / "catalog.json").read_text())["exchange_rates"]["CNY"]["as_of"] == "2026-11-27"


def test_another_currency_is_refused_before_any_request(data, today, http):
    before = (data / "catalog.json").read_bytes()
    result = run("catalog", "refresh-rate", "EUR")
    one_error_line(result, "error: currency: CFETS quotes central parities against CNY only, not 'EUR'; give CNY")
    assert len(http.calls) == 0
    assert (data / "catalog.json").read_bytes() == before


DAY = dt.date(2026, 11, 29)


def test_refreshing_a_cny_cloud_without_a_rate_also_fetches_one(data, http):
    from trainstack.cli.catalog_cli import _rate_after_refresh

    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    line = _rate_after_refresh("alicloud", data, DAY)
    assert line == f"USD/CNY rate: recorded 1 USD = 7.1234 CNY as of 2026-11-27 ({SOURCE})"
    assert json.loads((data / "catalog.json").read_text())["exchange_rates"]["CNY"]["per_usd"] == 7.1234
    assert _rate_after_refresh("alicloud", data, DAY) == ""  # a current rate: nothing more to fetch


def test_a_failed_rate_fetch_after_a_refresh_only_warns(data, http):
    from trainstack.cli.catalog_cli import _rate_after_refresh

    before = (data / "catalog.json").read_bytes()
    http.add(responses.GET, cfets.URL, status=503)
    line = _rate_after_refresh("alicloud", data, DAY)
    assert line.startswith(
        "note: alicloud prices are in CNY and no current USD/CNY rate is recorded; fetching one "
        "failed (CFETS central parity"
    )
    assert line.endswith("run `trainstack catalog refresh-rate` later or record one with `catalog set-rate`")
    assert (data / "catalog.json").read_bytes() == before


def test_a_usd_cloud_refresh_fetches_no_rate(data, http):
    from trainstack.cli.catalog_cli import _rate_after_refresh

    assert _rate_after_refresh("aws", data, DAY) == ""  # `http` asserts no request was made


def record_by_hand(data, entry):
    meta_path = data / "catalog.json"
    meta_path.write_text(json.dumps({**json.loads(meta_path.read_text()), "exchange_rates": {"CNY": entry}}))


def test_a_newer_recorded_rate_is_kept_over_cfets_older_one(data, today, http):
    record_by_hand(data, {"per_usd": 7.2, "as_of": "2026-11-28", "source": "bank"})
    before = (data / "catalog.json").read_bytes()
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "kept 1 USD = 7.2 CNY as of 2026-11-28 (bank); CFETS's latest is 2026-11-27 (7.1234 CNY per USD)\n"
    )
    assert (data / "catalog.json").read_bytes() == before


def test_kept_rate_is_returned_unchanged(data, http):
    entry = {"per_usd": 7.2, "as_of": "2026-11-28", "source": "bank"}
    record_by_hand(data, entry)
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    kept = rates.refresh_rate(data, "CNY", today=dt.date(2026, 11, 29))
    assert kept == entry and isinstance(kept, rates.KeptRate)
    assert (kept.latest, kept.latest_per_usd) == ("2026-11-27", 7.1234)


@pytest.mark.parametrize(
    ("entry", "replaced"),
    [
        pytest.param(
            {"per_usd": 7.0, "as_of": "2026-11-20", "source": "bank"},
            "replaced 1 USD = 7.0 CNY as of 2026-11-20 (bank)",
            id="older",
        ),
        pytest.param(
            {"per_usd": 7.0, "as_of": "2026-12-05", "source": "typo"},
            "replaced 1 USD = 7.0 CNY as of 2026-12-05 (typo)",
            id="unusable-far-future",
        ),
        pytest.param(
            {"per_usd": "abc", "as_of": "2026-11-28", "source": "typo"},
            'replaced an unusable CNY entry ({"per_usd": "abc", "as_of": "2026-11-...)',
            id="broken",
        ),
    ],
)
def test_an_older_or_unusable_recorded_rate_is_replaced_and_named(data, today, http, entry, replaced):
    record_by_hand(data, entry)
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"recorded 1 USD = 7.1234 CNY as of 2026-11-27 ({SOURCE})\n{replaced}\n"
    assert json.loads((data / "catalog.json").read_text())["exchange_rates"]["CNY"] == {
        "per_usd": 7.1234,
        "as_of": "2026-11-27",
        "source": SOURCE,
    }


def test_a_beijing_date_one_day_ahead_of_local_today_is_recorded(data, today, http):
    today(dt.date(2026, 11, 26))  # a US evening: CFETS already published the 27th in Beijing
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate")
    assert result.stdout == f"recorded 1 USD = 7.1234 CNY as of 2026-11-27 ({SOURCE})\n", result.output
    assert json.loads((data / "catalog.json").read_text())["version"] == f"{BASE_VERSION}+CNY7.1234@2026-11-27"


def test_a_lowercase_currency_is_accepted(data, today, http):
    http.add(responses.GET, cfets.URL, body=CCPR.read_bytes())
    result = run("catalog", "refresh-rate", "cny")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"recorded 1 USD = 7.1234 CNY as of 2026-11-27 ({SOURCE})\n"
    assert "lowercase" in run("catalog", "refresh-rate", "--help").stdout


def test_a_data_dir_without_a_catalog_is_refused_before_any_request(data, today, http, tmp_path):
    result = run("catalog", "refresh-rate", "--data-dir", str(tmp_path / "nonexistent"))
    one_error_line(
        result,
        f"error: --data-dir: {tmp_path / 'nonexistent'} holds no catalog.json; give the catalog "
        "folder (default profiles/catalog/data)",
    )
    assert len(http.calls) == 0
