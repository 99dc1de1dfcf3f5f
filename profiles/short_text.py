"""A server's error text as one short line: an HTML error page becomes its title, never
the page itself; anything else is whitespace-collapsed and cut to a readable length."""

from __future__ import annotations

import re
from typing import Any

MESSAGE_CHARS = 160  # an API's error message is cut to this many characters
_HTML = re.compile(r"<\s*(!doctype\s+html|html|head|body)\b", re.IGNORECASE)
_TITLE = re.compile(r"<\s*title[^>]*>(.*?)<\s*/\s*title\s*>", re.IGNORECASE | re.DOTALL)
_HEADING = re.compile(r"<\s*h1[^>]*>(.*?)<\s*/\s*h1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
# An inline citation of a reference-facts id, `(china-prices.md CP-A32)` or `(CP-R1)`.
_INLINE_SOURCE = re.compile(r"\s*\((?:[\w.-]+\.md\s+)?([A-Z]{1,3}-[A-Z]{0,2}\d+(?:\.\.[A-Z]*\d+)?)\)")


def one_line(text: Any, limit: int | None = MESSAGE_CHARS) -> str:
    """`text` on one line with single spaces, at most `limit` characters (`...` when cut;
    None: no cut).

    An HTML page (a proxy's or load balancer's error page) is reduced to its `<title>` (or
    first `<h1>`), e.g. `HTML error page: 502 Bad Gateway`.
    """
    raw = str(text)
    if _HTML.search(raw):
        import html  # only for an error page: its entity table costs `resolve` ~1 % to import

        found = _TITLE.search(raw) or _HEADING.search(raw)
        title = " ".join(html.unescape(_TAG.sub(" ", found.group(1))).split()) if found else ""
        raw = f"HTML error page: {title}" if title else "an HTML error page"
    line = " ".join(raw.split())
    return line if limit is None or len(line) <= limit else line[: limit - 3].rstrip() + "..."


def cited(text: str) -> str:
    """`text` with its inline source citations (`(china-prices.md CP-A32)`) moved to one
    trailing `[source CP-A32]`: user text says what a figure is, the ids follow it (as
    `facts.storage_prices` writes them). Text without one is returned as it is."""
    ids = _INLINE_SOURCE.findall(text)
    if not ids:
        return text
    return f"{_INLINE_SOURCE.sub('', text)} [source {', '.join(dict.fromkeys(ids))}]"
