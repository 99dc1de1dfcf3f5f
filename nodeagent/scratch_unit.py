"""Install `/scratch` on a node at every boot: the bootstrap snippet (bash, run as root by the
cloud's user data / cloud-init) that writes `scratch.py` and a oneshot systemd unit running it.

The unit runs before the node agent's job unit and before anything that may read the dataset
cache; it never fails the boot (a node without local NVMe logs that and carries on).
"""

from __future__ import annotations

import base64
import functools
import gzip
from pathlib import Path

from nodeagent.ship import compact_source

SCRIPT = "/opt/trainstack/nodeagent/scratch.py"
UNIT = "trainstack-scratch.service"
_SOURCE = Path(__file__).resolve().parent / "scratch.py"


def unit_text() -> str:
    """The oneshot unit: assemble and mount `/scratch` once per boot, before the job."""
    return "\n".join(
        [
            "[Unit]",
            "Description=trainstack /scratch on local NVMe (ephemeral cache)",
            "DefaultDependencies=no",
            "After=local-fs-pre.target systemd-udev-settle.service",
            "Before=trainstack-job.service",
            "[Service]",
            "Type=oneshot",
            "RemainAfterExit=yes",
            f"ExecStart=/usr/bin/python3 {SCRIPT}",
            "SuccessExitStatus=1",  # a disk in use elsewhere: logged, never blocks the boot
            "[Install]",
            "WantedBy=multi-user.target",
            "",
        ]
    )


@functools.lru_cache(maxsize=1)
def install_script() -> str:
    """Bash that writes the script (docstrings dropped, gzip, base64: user data is small) and the unit, enables it and
    runs it now (first boot). Made once per process: every worker's bootstrap carries the same text."""
    encoded = base64.b64encode(gzip.compress(compact_source(_SOURCE.read_text(encoding="utf-8")), mtime=0)).decode()
    return "\n".join(
        [
            "# trainstack /scratch: local NVMe as one ephemeral RAID0 cache",
            f"mkdir -p {Path(SCRIPT).parent}",
            f"echo '{encoded}' | base64 -d | gunzip > {SCRIPT}",
            f"cat > /etc/systemd/system/{UNIT} <<'TRAINSTACK_SCRATCH'",
            unit_text(),
            "TRAINSTACK_SCRATCH",
            "systemctl daemon-reload",
            f"systemctl enable --now {UNIT} || true",
            "",
        ]
    )
