"""Where things sit on a benchmarked node: the node agent's job file, its unit and code, and
the folder a detached run's script is kept in (`trainstack.bench.remote`)."""

from __future__ import annotations

JOB_FILE = "/etc/trainstack/job.json"
JOB_UNIT_FILE = "/etc/systemd/system/trainstack-job.service"  # nodeagent.ship.UNIT_FILE of a worker
AGENT_DIR = "/opt/trainstack"  # nodeagent.ship.AGENT_DIR (not imported: it pulls the launcher in)
SCRIPTS = "/var/lib/trainstack"  # where a detached run's script is kept (root only)
