"""`trainstack resolve --live`: rank again with the clouds' live capacity answers.

The spot pools of the rows resolve shows, and of as many rows after them, are asked about
(`profiles.preflight.signals.live_scores`: AWS spot placement scores, Azure's spot placement
score); a pool the cloud rates unlikely to fill now ranks after every row without a caveat
(`profiles.choice.live`). A cloud that cannot be asked (no credentials, a refused call) says so
in one line and its rows keep their offline rank. Imported only with `--live`: plain
`resolve` loads no cloud SDK.
"""

from __future__ import annotations

from typing import Any


def live_ranking(spec: Any, rows: Any, top: int, resolution: Any) -> tuple[Any, list[str]]:
    """(the resolution ranked with the live answers, the lines saying what was read or why not)."""
    from profiles.preflight.signals import live_scores
    from profiles.resolver import resolve

    scores, lines = live_scores(live_rows(resolution, top))
    if not lines:
        return resolution, ["live: no spot row to score; the ranking is the offline one"]
    return (resolve(spec, rows, top=top, live=scores) if scores else resolution), lines


def live_rows(resolution: Any, top: int) -> list:
    """The rows `--live` asks about: the shown ones, then the next distinct (offering, purchase)
    of every candidate (cheapest first) up to twice `top`: the rows that move up when one is
    ranked down."""
    found = [r.candidate for r in (resolution.choice, *resolution.alternatives)]
    seen = {(c.offering, c.purchase) for c in found}
    for c in resolution.candidates:
        if len(found) >= 2 * top:
            break
        if (c.offering, c.purchase) not in seen:
            seen.add((c.offering, c.purchase))
            found.append(c)
    return found
