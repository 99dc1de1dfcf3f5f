"""Capacity signals for `trainstack check`: what each cloud publishes about whether the stack's
nodes can be had now, beside the checks of `profiles.preflight.check` (offering, quota).

A cloud with signals has a `profiles.preflight.<cloud>_signals` module whose
`signals(cluster, settings, session) -> [Finding]` reads its APIs (AWS spot placement scores
and Capacity Block offerings, Azure's spot placement score, GCP's reservations); `settings`
is the stack file's `config:` (a project id), `session` an AWS session for tests. A signal is
advice, never a failure: a call that is refused or cannot be made is an `unknown` finding
with its one line, and the other checks stand; but missing credentials stop the live checks
(`PreflightError`, `check` exits 1), the same on every cloud (docs/cli.md, `check`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from clouds.contract import ClusterConfig
from profiles.candidate import Candidate
from profiles.choice.live import Key, LiveScore
from profiles.preflight.finding import Finding, PreflightError


def capacity_signals(
    cluster: ClusterConfig, settings: Mapping[str, Any] | None = None, session: Any = None
) -> list[Finding]:
    """The stack's capacity signals; [] for a cloud that publishes none trainstack reads, and
    for a platform with its own live check (`Platform.live_check`): the cloud's signals are
    about its VMs (EC2 spot placement scores, Capacity Blocks), which the platform's instances
    are not (SageMaker buys spot and reserved capacity itself: managed spot, training plans).

    Raises:
        PreflightError: the cloud's credentials are missing (one line naming them and how to
            provide them); a signal the cloud refuses is an `unknown` finding instead.
    """
    from profiles.preflight.check import live_platform

    if live_platform(cluster) is not None:
        return []
    try:
        module = importlib.import_module(f"profiles.preflight.{cluster.provider}_signals")
    except ModuleNotFoundError:
        return []
    return module.signals(cluster, settings or {}, session)  # type: ignore[no-any-return]


def live_scores(rows: Iterable[Candidate]) -> tuple[dict[Key, LiveScore], list[str]]:
    """`resolve --live`: the live answers for the spot `rows` (each cloud with a
    `live_scores` in its signals module), and one line per cloud saying what was read or why
    not (then its rows rank offline).

    Returns:
        ((cloud, zone, instance type) -> score, lines for stderr).
    """
    asks: dict[str, list[tuple[str, str, str, int]]] = {}
    for c in rows:
        if c.purchase == "spot":
            o = c.offering
            ask = (o.region, o.zone, o.instance_type, c.nodes)
            if ask not in asks.setdefault(o.provider, []):
                asks[o.provider].append(ask)
    found: dict[Key, LiveScore] = {}
    lines = []
    for provider, wanted in sorted(asks.items()):
        try:
            module = importlib.import_module(f"profiles.preflight.{provider}_signals")
            read = module.live_scores
        except (ModuleNotFoundError, AttributeError):
            lines.append(f"live: {provider} publishes no spot capacity answer trainstack reads; its rows rank offline")
            continue
        try:
            scores = read(wanted)
        except PreflightError as exc:
            lines.append(f"live: {provider}: {exc}; its rows rank offline")
            continue
        found.update({(provider, zone, instance_type): s for (zone, instance_type), s in scores.items()})
        low = [f"{instance_type} in {zone}" for (zone, instance_type), s in sorted(scores.items()) if s.low]
        after = f"; unlikely to fill now, ranked after the rest: {', '.join(low)}" if low else "; none unlikely to fill"
        lines.append(f"live: {provider}: {len(scores)} spot pool(s) scored{after}")
    return found, lines
