"""A server's error text becomes one short line; an HTML page is reduced to its title."""

import pytest

from profiles.short_text import one_line


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param(
            "<html><head><title>503 Service Unavailable</title></head><body>" + "x " * 500 + "</body></html>",
            "HTML error page: 503 Service Unavailable",
            id="title",
        ),
        pytest.param(
            "<!doctype html><body><h1>Access &amp; Denied</h1><p>long</p></body>",
            "HTML error page: Access & Denied",
            id="heading-entities",
        ),
        pytest.param("<html><body>" + "<div>no title</div>" * 100 + "</body></html>", "an HTML error page", id="bare"),
        pytest.param("  two\n lines  ", "two lines", id="plain"),
    ],
)
def test_one_line(text, line):
    assert one_line(text) == line


def test_long_text_is_cut_with_an_ellipsis():
    line = one_line("word " * 100, limit=40)
    assert len(line) <= 40 and line.endswith("...")
