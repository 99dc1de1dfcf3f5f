"""Capacity signals for `trainstack check`: what each cloud publishes about whether the stack's
nodes can be had now, beside the checks of `profiles.preflight.check` (offering, quota).

A cloud with signals has a `profiles.preflight.<cloud>_signals` module whose
`signals(cluster, settings, session) -> [Finding]` reads its APIs (AWS spot placement scores
and Capacity Block offerings, Azure's spot placement score, GCP's reservations); `settings`
is the stack file's `config:` (a project id), `session` an AWS session for tests. A signal is
advice, never a failure: a call that is refused or cannot be made is an `unknown` finding
with its one line, and the other checks stand.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from profiles.preflight.finding import Finding


def capacity_signals(
    cluster: ClusterConfig, settings: Mapping[str, Any] | None = None, session: Any = None
) -> list[Finding]:
    """The stack's capacity signals; [] for a cloud that publishes none trainstack reads."""
    try:
        module = importlib.import_module(f"profiles.preflight.{cluster.provider}_signals")
    except ModuleNotFoundError:
        return []
    return module.signals(cluster, settings or {}, session)  # type: ignore[no-any-return]
