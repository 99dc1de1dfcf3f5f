"""Small helpers for the words of user messages, shared by every layer that prints them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# Letters (and the digit 8) whose spoken name starts with a vowel sound ("eff", "aitch", "ell",
# "ess", "ex", "eight"), for names read letter by letter: an S3 bucket, an H100, an FSx.
_VOWEL_SOUNDING_LETTERS = frozenset("aefhilmnorsx8")


def article(word: str) -> str:
    """`word` with its indefinite article: `an aws`, `an azure`, `a gcp`, `an s3://`, `a us-east-1`.

    A name with a digit or without a vowel (`s3`, `h100`, `gcp`, `fsx`) is read letter by
    letter, so its first letter's spoken name decides; any other word takes `an` before a
    vowel, except `u` (`a us-east-1`, `a uksouth`: "you").

    Args:
        word: the word or name the article stands before (kept as given).

    Returns:
        `"a WORD"` or `"an WORD"`.
    """
    w = word.strip().lower()
    first = w[:1]
    spelled = any(c.isdigit() for c in w) or not any(c in "aeiouy" for c in w)
    if spelled:
        vowel = first in _VOWEL_SOUNDING_LETTERS
    else:
        vowel = first in "aeio"
    return f"{'an' if vowel else 'a'} {word}"


def listed(values: Iterable[str], near: str = "", limit: int = 8) -> str:
    """`a, b, c`: the valid values of a field, the closest to `near` (the value written) first,
    then the rest sorted; at most `limit`, then `, ... (N in all)`.

    Args:
        values: the valid values (duplicates are dropped).
        near: what the user wrote, or "" for plain sorted order.
        limit: how many to show.
    """
    unique = sorted(set(values))
    close = difflib.get_close_matches(near, unique, n=limit, cutoff=0.3) if near else []
    ordered = close + [v for v in unique if v not in close]
    more = f", ... ({len(unique)} in all)" if len(ordered) > limit else ""
    return ", ".join(ordered[:limit]) + more


def did_you_mean(value: str, valid: Iterable[str], what: str = "known", cutoff: float = 0.6) -> str:
    """`did you mean us-east-1, us-east-2?` when some valid value is close to `value` (difflib
    ratio at least `cutoff`), else `WHAT: a, b, c, ...` (the valid values, `listed`)."""
    unique = sorted(set(valid))
    close = difflib.get_close_matches(value, unique, n=3, cutoff=cutoff)
    return f"did you mean {', '.join(close)}?" if close else f"{what}: {listed(unique, value)}"


def usd_rate(amount: float) -> str:
    """A price as a stack file records it: `$12.3314`, `$30,828.50`, `$1,234,567.89`: grouped, at
    least to the cent and at most to four decimals, never in exponent form (a figure such as `:g`
    gives, `$1.23457e+06`, hides the cents of anything from $10,000 up)."""
    text = f"{abs(amount):,.4f}".rstrip("0")
    whole, _, cents = text.partition(".")
    return f"{'-' if amount < 0 else ''}${whole}.{cents.ljust(2, '0')}"


def usd(amount: float) -> str:
    """`$1,234` from $100 up, `$12.50` or `$0.43` below it: a difference or small cost is never
    shown as `$0` (whole dollars would hide up to 50 cents; to the cent, the figure keeps at
    least three significant digits from $1 up)."""
    size = abs(amount)
    text = f"${size:,.0f}" if size >= 100 else f"${size:,.2f}"
    return f"-{text}" if amount < 0 and text.strip("$0.,") else text
