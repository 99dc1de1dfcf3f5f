"""The cost-vs-time Pareto front of candidates: none is both faster and cheaper."""

from __future__ import annotations

from collections.abc import Iterable

from profiles.candidate import Candidate


def pareto_front(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Candidates no other candidate beats on both hours and USD per job, fastest first.

    Ties (same hours and cost) keep the first by `Candidate.sort_key`.
    """
    front: list[Candidate] = []
    best_cost = float("inf")
    for candidate in sorted(candidates, key=lambda c: (c.hours, c.usd_total, c.sort_key())):
        if candidate.usd_total < best_cost:
            front.append(candidate)
            best_cost = candidate.usd_total
    return front
