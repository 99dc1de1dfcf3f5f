"""Live capacity answers applied to resolve rows (`trainstack resolve --live`).

The clouds' capacity signals (`profiles.preflight.signals.live_scores`: AWS spot placement
scores, Azure's spot placement score) are read for the spot rows resolve would show, keyed by
(cloud, zone, instance type). A row whose zone the cloud rates unlikely to fill now gets a
caveat (`Candidate.caveats`: it ranks after every row without one, as a single-zone price
outlier does), any other scored row a note with its score. The answers are advice valid when
asked ("No score guarantees that your Spot request will be fully or partially fulfilled",
AWS SpotPlacementScore), so they reorder rows and never remove one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from profiles.candidate import Candidate

# (cloud, zone, instance type) -> the cloud's answer for that spot pool.
Key = tuple[str, str, str]


@dataclass(frozen=True)
class LiveScore:
    """One spot pool's live capacity answer.

    Attributes:
        text: what the cloud said, with the API and the time asked, e.g. `AWS spot placement
            score 2 of 10 for 2 nodes (GetSpotPlacementScores, 2026-12-07 13:10 UTC)`.
        low: the cloud rates the request unlikely to succeed now (AWS 3 or less, Azure Low).
    """

    text: str
    low: bool


def key(c: Candidate) -> Key:
    """The row's spot pool."""
    return (c.offering.provider, c.offering.zone, c.offering.instance_type)


def with_live_scores(found: list[Candidate], scores: Mapping[Key, LiveScore]) -> list[Candidate]:
    """`found` with each scored spot row's live answer: a caveat when low, a note otherwise."""
    if not scores:
        return found
    kept = []
    for c in found:
        score = scores.get(key(c)) if c.purchase == "spot" else None
        if score is not None and score.low:
            c = dataclasses.replace(c, caveats=(*c.caveats, f"live: {score.text}: unlikely to get capacity now"))
        elif score is not None:
            c = dataclasses.replace(c, notes=(*c.notes, f"live: {score.text}"))
        kept.append(c)
    return kept
