"""`python -m nodeagent fill [CONFIG]`: on-demand nodes fill a spot group that stays below size
(runs on the cluster's on-demand head node; `clouds.capacity` says which clouds use it).

The cluster has two groups of the same shape: the spot group (size = the cluster's nodes) and
an on-demand group created empty. Each pass counts the spot group's running nodes and sets the
on-demand group's size (`fill_target`): when spot has been short for `after_seconds`, the
on-demand group is sized to the shortfall; as spot nodes come back it shrinks, down to 0 when
spot is whole again. A call that fails is logged and retried on the next pass.

Each cloud's groups are read and resized by `nodeagent.<cloud>_fill` (`groups(config)`).
Standard library only: the module ships to
the node (`nodeagent.ship`).
"""

from __future__ import annotations

import importlib
import json
import logging
import subprocess
import time
from collections.abc import Callable
from typing import Any

from nodeagent.gcp_queued import ApiError

log = logging.getLogger("nodeagent.fill")

CONFIG_FILE = "/etc/trainstack/fill.json"


def fill_target(
    running_spot: int, nodes: int, on_demand: int, below_since: float | None, now: float, after_seconds: float
) -> tuple[int, float | None]:
    """The on-demand group's size and since when spot has been short (None: it is whole).

    Args:
        running_spot: the spot group's running, healthy nodes.
        nodes: the cluster's size.
        on_demand: the on-demand group's size now.
        below_since: when spot was first seen short (seconds), or None.
        now: seconds, the same clock.
        after_seconds: how long spot may be short before on-demand fills the gap.

    Returns:
        `(size, below_since)`: the shortfall once spot has been short for `after_seconds`;
        before that the current size, never above the shortfall; 0 when spot is whole.
    """
    short = max(0, nodes - running_spot)
    if short == 0:
        return 0, None
    since = now if below_since is None else below_since
    if now - since >= after_seconds:
        return short, since
    return min(on_demand, short), since


def groups_of(config: dict) -> Any:
    """The groups of the cloud the fill config names (`nodeagent.<cloud>_fill.groups`)."""
    module = importlib.import_module(f"nodeagent.{config['cloud']}_fill")
    return module.groups(config)


def run(
    config: dict,
    groups: Any,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    passes: int | None = None,
) -> None:
    """Pass every `poll_seconds` (60 by default): read the sizes, set the on-demand size."""
    below_since: float | None = None
    done = 0
    while passes is None or done < passes:
        try:
            running, on_demand = groups.sizes()
            target, below_since = fill_target(
                running, int(config["nodes"]), on_demand, below_since, clock(), float(config["after_seconds"])
            )
            if target != on_demand:
                log.info("spot running %d of %d: on-demand %d -> %d", running, config["nodes"], on_demand, target)
                groups.resize(target)
        except (ApiError, ValueError, KeyError, OSError, subprocess.SubprocessError) as exc:
            log.warning("fill pass failed, retrying next pass: %s", exc)
        done += 1
        if passes is None or done < passes:
            sleep(float(config.get("poll_seconds", 60)))


def serve(path: str = CONFIG_FILE) -> int:
    """Run the fill loop from the config file at `path` (exit 2 on an unreadable file)."""
    try:
        with open(path, encoding="utf-8") as handle:
            config = json.load(handle)
        groups = groups_of(config)
    except (OSError, ValueError, KeyError) as exc:
        log.error("fill config %s: %s", path, exc)
        return 2
    run(config, groups)
    return 0
