"""The startup script of a TPU cluster's queued-resource controller VM (pure, no Pulumi):
the controller (`nodeagent.gcp_queued`) unpacked, its config written, its unit started."""

from __future__ import annotations

import json
from pathlib import Path

from nodeagent.gcp_queued import CONFIG_FILE
from nodeagent.ship import AGENT_DIR, UNIT_FILE, bundle, unit_text

# What the controller VM runs (`nodeagent.gcp_queued`), and what `nodeagent.__main__` imports
# on the way (`job`, which names the notice watchers: `notices`, `metadata`, `clouds/`).
CONTROLLER_SHIPPED = (
    "__init__.py",
    "__main__.py",
    "job.py",
    "metadata.py",
    "notices.py",
    "gcp_queued.py",
    *sorted(f"clouds/{p.name}" for p in (Path(__file__).resolve().parents[2] / "nodeagent" / "clouds").glob("*.py")),
)


def controller_script(config: dict) -> str:
    """The startup script of a TPU cluster's queued-resource controller VM: unpack the
    controller (`CONTROLLER_SHIPPED`), write its config (`clouds.gcp.queued.controller_config`)
    and start `trainstack-queued.service`. Idempotent (GCP runs it at every boot).

    Args:
        config: the controller config, JSON-ready.
    """
    path = UNIT_FILE.format(unit="queued")
    exec_start = f"/usr/bin/python3 -m nodeagent queued {CONFIG_FILE}"
    return "\n".join(
        [
            "#!/bin/bash",
            "# trainstack queued-resource controller",
            "set -euo pipefail",
            f"mkdir -p {AGENT_DIR} {Path(CONFIG_FILE).parent}",
            f"echo '{bundle(CONTROLLER_SHIPPED)}' | base64 -d | tar -xz -C {AGENT_DIR}",
            f"cat > {CONFIG_FILE} <<'TRAINSTACK_QUEUED'",
            json.dumps(config, sort_keys=True),
            "TRAINSTACK_QUEUED",
            f"cat > {path} <<'TRAINSTACK_UNIT'",
            unit_text("queued", exec_start, None, 30),
            "TRAINSTACK_UNIT",
            "systemctl daemon-reload",
            "systemctl enable --now trainstack-queued.service",
            "",
        ]
    )
