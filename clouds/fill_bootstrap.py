"""The head node's on-demand fill unit (`nodeagent.fill`), for a spot cluster whose cloud fills
a short spot group from an on-demand one with the cluster's own watcher (`Cloud.spot_fallback`).

The head already unpacks the agent for its rendezvous unit (`clouds.job_bootstrap`); this adds
the fill config (`/etc/trainstack/fill.json`) and its systemd unit. The config names the
cluster, not the groups: the watcher finds them by the cluster's tag (AWS) or name (GCP), so the
head's bootstrap does not depend on the groups' generated names.
"""

from __future__ import annotations

import json
from typing import Any

from nodeagent.ship import UNIT_FILE, unit_text

FILL_FILE = "/etc/trainstack/fill.json"
# Seconds between the watcher's passes (a choice: a minute is small beside the fallback's delay).
POLL_SECONDS = 60


def fill_config(name: str, nodes: int, after_minutes: int, cloud: str, **where: Any) -> dict[str, Any]:
    """The watcher's config: the cluster, its size, the delay and where its groups are
    (`region` on AWS; `project` and `location` on GCP)."""
    return {
        "cloud": cloud,
        "cluster": name,
        "nodes": nodes,
        "after_seconds": after_minutes * 60,
        "poll_seconds": POLL_SECONDS,
        **where,
    }


def fill_script(config: dict[str, Any]) -> str:
    """Bash (no shebang) that writes the fill config and starts `trainstack-fill.service`."""
    path = UNIT_FILE.format(unit="fill")
    return "\n".join(
        [
            "# trainstack on-demand fill (spot below size for the stack's on_demand_after_minutes)",
            f"cat > {FILL_FILE} <<'TRAINSTACK_FILL'",
            json.dumps(config, sort_keys=True),
            "TRAINSTACK_FILL",
            f"cat > {path} <<'TRAINSTACK_UNIT'",
            unit_text("fill", f"/usr/bin/python3 -m nodeagent fill {FILL_FILE}", None, 30),
            "TRAINSTACK_UNIT",
            "systemctl daemon-reload",
            "systemctl enable --now trainstack-fill.service",
            "",
        ]
    )
