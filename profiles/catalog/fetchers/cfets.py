"""The USD/CNY central parity from CFETS, for `trainstack catalog refresh-rate`.

Source: the China Foreign Exchange Trade System (CFETS) publishes the RMB central parity
rates (人民币汇率中间价) each business day at about 9:15 Beijing time on chinamoney.com.cn.
`GET https://www.chinamoney.com.cn/r/cms/www/chinamoney/data/fx/ccpr.json` (no parameters,
no key) answers the latest day:

    {"head": {"version": "2.0", "provider": "CWAP", "rep_code": "200", "rep_message": "", ...},
     "data": {"lastDate": "YYYY-MM-DD H:MM", "lastDateEn": "DD/MM/YYYY H:MM", ...},
     "records": [{"vrtCode": "1", "vrtName": "美元/人民币", "vrtEName": "USD/CNY",
                  "foreignCName": "USD", "price": "N.NNNN", "bp": "...", ...}, ...]}

`price` is a string: CNY per 1 unit of the foreign currency (per 100 for `100JPY/CNY`), so
the `USD/CNY` record is CNY per 1 USD. `data.lastDate` is the publication date and time.
CFETS publishes no API reference for this file: the shape comes from public clients and
write-ups of it (tests/profiles/fixtures/cfets/README.md). Some clients POST to the URL;
others and a recorded session GET it, as here, through the shared `http_json.get_json`.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import requests

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import get_json, one_line

URL = "https://www.chinamoney.com.cn/r/cms/www/chinamoney/data/fx/ccpr.json"
SOURCE = "CFETS central parity (chinamoney.com.cn ccpr.json)"
API = SOURCE  # the name in error messages
CURRENCY, PAIR = "CNY", "USD/CNY"
# A sanity band in CNY per USD, deliberately wide: it catches a garbled price or one in
# another unit (per 100 USD), not a rate that moved. Not a forecast of the rate.
MIN_CNY_PER_USD, MAX_CNY_PER_USD = 1.0, 20.0
BY_HAND = "or record the rate by hand with `trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT`"
AGAIN = f"run `trainstack catalog refresh-rate` again later, {BY_HAND}"
HINTS = {
    403: f"chinamoney.com.cn refused the request; {AGAIN}",
    404: f"the ccpr.json address may have moved; {BY_HAND}",
}


def currency_problem(currency: str) -> str:
    """Why CFETS cannot give a rate for `currency` (it quotes CNY only), or ""."""
    if currency == CURRENCY:
        return ""
    return (
        f"currency: CFETS quotes central parities against CNY only, not '{currency}'; "
        "give CNY, or record another currency with `trainstack catalog set-rate`"
    )


def fetch_rate(currency: str = CURRENCY, session: requests.Session | None = None) -> tuple[float, str]:
    """The latest CFETS central parity of USD against `currency`, and the day it applies to.

    Args:
        currency: ISO 4217 code; only `CNY` (CFETS quotes central parities against CNY).
        session: the `requests.Session` to use (default: a new one, closed afterwards).

    Returns:
        `(per_usd, as_of)`: CNY per 1 USD (the `USD/CNY` record's `price`) and the ISO date
        (`YYYY-MM-DD`) of `data.lastDate`, the day CFETS published it.

    Raises:
        FetchError: a currency other than CNY (before any request); the network failing;
            throttling (HTTP 429/503) or another HTTP error; a body that is not a JSON
            object; a `head.rep_code` other than "200"; no `USD/CNY` record, or records
            that disagree; a price that is not a finite number from 1 to 20 CNY per USD; a
            missing or invalid `data.lastDate`. The one-line message says what to do.
    """
    if currency_problem(currency):
        raise FetchError(currency_problem(currency))
    if session is None:
        with requests.Session() as own:
            body = get_json(own, URL, api=API, page=1, hints=HINTS)
    else:
        body = get_json(session, URL, api=API, page=1, hints=HINTS)
    _check_head(body)
    return _usd_price(body), _published_on(body)


def _check_head(body: dict[str, Any]) -> None:
    """Refuse an answer whose `head.rep_code` is present and not "200"."""
    head = body.get("head")
    if not isinstance(head, dict):
        return
    code = head.get("rep_code")
    if code is not None and str(code) != "200":
        message = one_line(head.get("rep_message") or "")
        detail = f" ({message})" if message else ""
        raise FetchError(f"{API}: the answer reports rep_code {code}{detail}; {AGAIN}")


def _usd_price(body: dict[str, Any]) -> float:
    """CNY per USD from the one `USD/CNY` record (several records must agree)."""
    records = body.get("records")
    if not isinstance(records, list):
        raise FetchError(f"{API}: the answer has no `records` list (malformed); {AGAIN}")
    prices = {str(r.get("price")).strip() for r in records if isinstance(r, dict) and r.get("vrtEName") == PAIR}
    if not prices:
        raise FetchError(f"{API}: no {PAIR} record among the {len(records)} records; {AGAIN}")
    if len(prices) > 1:
        raise FetchError(f"{API}: the {PAIR} records disagree ({', '.join(sorted(prices))}); {AGAIN}")
    text = prices.pop()
    try:
        price = float(text)
    except ValueError:
        raise FetchError(f"{API}: the {PAIR} price '{text[:40]}' is not a number; {AGAIN}") from None
    if not (math.isfinite(price) and MIN_CNY_PER_USD <= price <= MAX_CNY_PER_USD):
        raise FetchError(
            f"{API}: the {PAIR} price {text[:40]} is not a plausible number of CNY per USD "
            f"(expected {MIN_CNY_PER_USD:g} to {MAX_CNY_PER_USD:g}); {AGAIN}"
        )
    return price


def _published_on(body: dict[str, Any]) -> str:
    """The ISO date of `data.lastDate` ("2026-11-27 9:15" -> "2026-11-27")."""
    data = body.get("data")
    stamp = data.get("lastDate") if isinstance(data, dict) else None
    day = stamp.split()[0] if isinstance(stamp, str) and stamp.strip() else ""
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            raise ValueError(day)
        return dt.date.fromisoformat(day).isoformat()
    except ValueError:
        shown = "missing" if stamp is None else repr(str(stamp)[:40])
        raise FetchError(f"{API}: the answer has no valid publication date (data.lastDate {shown}); {AGAIN}") from None
