"""CFETS central parity fetcher: the constructed ccpr.json answer replayed over HTTP ->
(CNY per USD, date); each bad answer -> a one-line FetchError that says what to do."""

from __future__ import annotations

import json

import pytest
import requests
import responses
from recorded_pages import cut_short, page_bytes, page_json

from profiles.catalog.fetchers import FetchError, cfets


def answer(http: responses.RequestsMock, **reply) -> None:
    http.add(responses.GET, cfets.URL, **reply)


def edited(change) -> bytes:
    """ccpr.json after `change(body)`."""
    body = page_json("cfets", "ccpr.json")
    change(body)
    return json.dumps(body, ensure_ascii=False).encode()


def usd_record(body: dict) -> dict:
    return next(r for r in body["records"] if r["vrtEName"] == "USD/CNY")


def one_line_error(**kwargs) -> str:
    with pytest.raises(FetchError) as error:
        cfets.fetch_rate(**kwargs)
    message = str(error.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("own_session", [False, True], ids=["new-session", "given-session"])
def test_the_usd_cny_record_and_its_date_are_read(http, own_session):
    answer(http, body=page_bytes("cfets", "ccpr.json"))
    session = requests.Session() if own_session else None
    # 7.1234 and 2026-11-27 are the fixture's values (the second record; EUR/CNY comes first)
    assert cfets.fetch_rate("CNY", session=session) == (7.1234, "2026-11-27")
    assert http.calls[0].request.method == "GET" and http.calls[0].request.url == cfets.URL


def test_the_default_currency_is_cny_and_records_must_agree(http):
    def two_usd_records(body):
        body["records"].append({**usd_record(body), "price": "7.2000"})

    answer(http, body=page_bytes("cfets", "ccpr.json"))
    answer(http, body=edited(lambda body: body["records"].append(dict(usd_record(body)))))
    answer(http, body=edited(two_usd_records))
    assert cfets.fetch_rate() == (7.1234, "2026-11-27")
    assert cfets.fetch_rate() == (7.1234, "2026-11-27")  # the same record twice is no conflict
    assert "the USD/CNY records disagree (7.1234, 7.2000)" in one_line_error()


@pytest.mark.parametrize("currency", ["USD", "EUR", "cny", ""])
def test_only_cny_is_quoted_and_nothing_is_asked(http, currency):
    message = one_line_error(currency=currency)
    assert message == (
        f"currency: CFETS quotes central parities against CNY only, not '{currency}'; "
        "give CNY, or record another currency with `trainstack catalog set-rate`"
    )
    assert len(http.calls) == 0


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param(
            {"status": 429, "headers": {"Retry-After": "120"}},
            "page 1: throttled (HTTP 429); wait 120 s and run",
            id="429",
        ),
        pytest.param({"status": 503}, "page 1: throttled (HTTP 503); wait a few minutes", id="503"),
        pytest.param(
            {"status": 403},
            "HTTP 403; chinamoney.com.cn refused the request; run `trainstack catalog refresh-rate` again later, or record the rate by hand with `trainstack catalog set-rate CNY RATE",
            id="403",
        ),
        pytest.param(
            {"status": 404}, "HTTP 404; the ccpr.json address may have moved; or record the rate by hand", id="404"
        ),
        pytest.param({"status": 500}, "HTTP 500; retry later", id="500"),
        pytest.param(
            {"body": requests.exceptions.ConnectionError("no route")},
            "request failed (ConnectionError); check the network and retry",
            id="network",
        ),
        pytest.param(
            {"body": requests.exceptions.ReadTimeout("slow")},
            "request failed (ReadTimeout); check the network",
            id="timeout",
        ),
        pytest.param(
            cut_short(page_bytes("cfets", "ccpr.json"), 200),
            "the answer broke off mid-page (partial page)",
            id="cut-short",
        ),
        pytest.param(
            {"body": b"<html><body>busy</body></html>"},
            "the answer is not valid JSON (malformed or cut short)",
            id="html",
        ),
        pytest.param({"json": [1, 2]}, "the answer is not a JSON object (malformed)", id="json-list"),
    ],
)
def test_http_failures_name_the_source_and_the_fix(http, reply, expected):
    answer(http, **reply)
    message = one_line_error()
    assert message.startswith("CFETS central parity (chinamoney.com.cn ccpr.json), page 1: ")
    assert expected in message


def test_a_rep_code_other_than_200_is_an_error(http):
    answer(http, body=page_bytes("cfets", "rep_code_error.json"))
    assert one_line_error() == (
        "CFETS central parity (chinamoney.com.cn ccpr.json): the answer reports rep_code 400 (Invalid parameter); "
        "run `trainstack catalog refresh-rate` again later, or record the rate by hand with "
        "`trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT`"
    )


def set_usd_price(price):
    return lambda body: usd_record(body).update(price=price)


def set_last_date(value):
    return lambda body: body["data"].update(lastDate=value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(lambda b: b.pop("records"), "the answer has no `records` list (malformed)", id="no-records"),
        pytest.param(lambda b: b.update(records={"USD/CNY": "7.1"}), "no `records` list", id="records-not-a-list"),
        pytest.param(
            lambda b: b["records"].remove(usd_record(b)), "no USD/CNY record among the 2 records", id="no-usd-record"
        ),
        pytest.param(lambda b: b.update(records=[]), "no USD/CNY record among the 0 records", id="empty-records"),
        pytest.param(set_usd_price("abc"), "the USD/CNY price 'abc' is not a number", id="text-price"),
        pytest.param(set_usd_price(""), "the USD/CNY price '' is not a number", id="empty-price"),
        pytest.param(set_usd_price(None), "the USD/CNY price 'None' is not a number", id="null-price"),
        pytest.param(
            set_usd_price("NaN"),
            "the USD/CNY price NaN is not a plausible number of CNY per USD (expected 1 to 20)",
            id="nan",
        ),
        pytest.param(set_usd_price("inf"), "the USD/CNY price inf is not a plausible number", id="inf"),
        pytest.param(set_usd_price("0"), "the USD/CNY price 0 is not a plausible number", id="zero"),
        pytest.param(set_usd_price("-7.1234"), "the USD/CNY price -7.1234 is not a plausible number", id="negative"),
        pytest.param(set_usd_price("712.34"), "the USD/CNY price 712.34 is not a plausible number", id="per-100-usd"),
        pytest.param(lambda b: b.pop("data"), "no valid publication date (data.lastDate missing)", id="no-data"),
        pytest.param(
            lambda b: b["data"].pop("lastDate"), "no valid publication date (data.lastDate missing)", id="no-last-date"
        ),
        pytest.param(set_last_date(""), "no valid publication date (data.lastDate '')", id="empty-date"),
        pytest.param(set_last_date("27/11/2026 9:15"), "(data.lastDate '27/11/2026 9:15')", id="day-first"),
        pytest.param(set_last_date("2026-02-30 9:15"), "(data.lastDate '2026-02-30 9:15')", id="no-such-day"),
        pytest.param(set_last_date("20261127"), "(data.lastDate '20261127')", id="compact-date"),
    ],
)
def test_bad_answers_are_one_line_errors_with_the_fix(http, change, expected):
    answer(http, body=edited(change))
    message = one_line_error()
    assert message.startswith("CFETS central parity (chinamoney.com.cn ccpr.json): ")
    assert expected in message
    assert message.endswith(
        "or record the rate by hand with `trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT`"
    )


def test_a_numeric_price_and_a_missing_head_are_accepted(http):
    def change(body):
        body.pop("head")
        usd_record(body)["price"] = 7.1234

    answer(http, body=edited(change))
    assert cfets.fetch_rate() == (7.1234, "2026-11-27")
