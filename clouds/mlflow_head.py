"""`job.tracking: {mlflow: managed}` on a VM stack: an MLflow tracking server on the job's head node.

Pure functions the clouds' bootstraps and components share:

- the head's bootstrap installs MLflow in a venv of the image's python3 and runs it as the unit
  `trainstack-mlflow`: `mlflow server` on port 5000 (MLflow's default) on all addresses, its
  run metadata in SQLite on the head's disk (the default store since MLflow 3.7, "Self-Hosting
  MLflow"), and its artifacts proxied to the team's bucket (`--artifacts-destination`: clients
  upload through the server, so only the node identity the head runs with writes them, "MLflow
  Tracking Server": artifact proxy), under the cluster's prefix `trainstack/mlflow/<cluster>/`
  (one folder per experiment inside). MLflow 3.5+ accepts only localhost and private-IP Host
  headers by default ("MLflow Tracking Server Security": `--allowed-hosts` default), which is
  how the workers reach it: by the head's private address, inside the cluster's security group;
- every worker's bootstrap adds `MLFLOW_TRACKING_URI=http://<head address>:5000` to the node's
  environment file, which the node agent reads at each launch (`nodeagent.job.read_env_file`):
  not the job's `env`, so the job's id and its channel never depend on the head's address. The
  address is the one the head keeps when it is replaced (AWS: its ENI; GCP: a reserved IP; Azure:
  its NIC);
- the node identity may write only that prefix (each cloud's data module: `mlflow_artifacts`,
  and its component's grant).

What it costs: the server runs on the head node the job already has (no VM is added), and its
artifacts are billed at the bucket's storage and request rates, which no cost counts: their
volume is the job's (`clouds.helper_vms.head_tracking_line`).

A head replaced by the cloud starts an empty store: run metadata is lost, artifacts stay in
the bucket (a choice: SQLite on a network file system is not safe for MLflow's several workers).
"""

from __future__ import annotations

import shlex

from clouds.contract import ClusterConfig
from clouds.data import link_for
from clouds.tracking import MANAGED

PORT = 5000  # MLflow's default port ("mlflow server --port", default 5000)
# Pinned: the newest release in the PyPI index as observed on 2026-12-07 (registry listing,
# mlflow 3.18.0, released 2026-11); a later release reaches new heads only through this pin.
VERSION = "3.18.0"
VENV = "/opt/trainstack/mlflow"
STORE = "/var/lib/trainstack/mlflow/mlflow.db"
UNIT = "trainstack-mlflow"


def on_head(cluster: ClusterConfig) -> bool:
    """Whether the cluster's head runs the tracking server: a VM stack whose job asks for `managed`."""
    job = cluster.job
    return cluster.platform is None and job is not None and job.tracking is not None and job.tracking.mlflow == MANAGED


def artifact_prefix(name: str) -> str:
    """The cluster's artifact prefix in the team's bucket (ends in `/`)."""
    return f"trainstack/mlflow/{name}/"


def destination(cluster: ClusterConfig, name: str) -> str:
    """`--artifacts-destination`: the prefix in the dataset's bucket, as the cloud's URI.

    Raises:
        ValueError: no dataset, or a cloud whose data module has no `mlflow_artifacts`.
    """
    link = link_for(cluster.provider)
    if cluster.data is None or link is None or not hasattr(link, "mlflow_artifacts"):
        raise ValueError("job.tracking.mlflow: managed needs the dataset's bucket on a cloud with a head server")
    return str(link.mlflow_artifacts(cluster.data.source, artifact_prefix(name)))


def tracking_uri(host: str) -> str:
    """The training environment's `MLFLOW_TRACKING_URI` for a head at `host`."""
    return f"http://{host}:{PORT}"


def worker_env_lines(host: str, env_file: str) -> list[str]:
    """Bash adding the tracking URI to the node's environment file (before its unit starts)."""
    return [f"echo {shlex.quote('export MLFLOW_TRACKING_URI=' + tracking_uri(host))} >> {env_file}"]


def unit_text(destination_uri: str) -> str:
    """The head's `trainstack-mlflow` unit."""
    command = [
        f"{VENV}/bin/mlflow",
        "server",
        "--host=0.0.0.0",
        f"--port={PORT}",
        f"--backend-store-uri=sqlite:///{STORE}",
        f"--artifacts-destination={destination_uri}",
    ]
    return "\n".join(
        [
            "[Unit]",
            "Description=trainstack MLflow tracking server (job.tracking: managed)",
            "Wants=network-online.target",
            "After=network-online.target",
            "StartLimitIntervalSec=600",
            "StartLimitBurst=5",
            "[Service]",
            f"ExecStart={shlex.join(command)}",
            "Restart=on-failure",
            "RestartSec=10",
            "[Install]",
            "WantedBy=multi-user.target",
            "",
        ]
    )


def server_lines(destination_uri: str, packages: tuple[str, ...]) -> list[str]:
    """Bash for the head's bootstrap: MLflow (and the bucket's client `packages`) in `VENV` once,
    the store's folder, and the unit started. A failed install leaves the unit failing (its log
    says why) and the rest of the bootstrap running: the rendezvous does not need MLflow."""
    venv, requirements = shlex.quote(VENV), shlex.join([f"mlflow=={VERSION}", *packages])
    return [
        "# trainstack MLflow tracking server (job.tracking: {mlflow: managed})",
        f"if [ ! -x {venv}/bin/mlflow ]; then",  # as `clouds.job_runtime.install_lines` makes its venv
        f"  if ! python3 -m venv --clear {venv}; then",
        "    apt-get update",
        "    DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv",
        f"    python3 -m venv --clear {venv}",
        "  fi",
        f"  {venv}/bin/pip install --no-cache-dir {requirements} || echo 'trainstack: MLflow install failed' >&2",
        "fi",
        f"mkdir -p {shlex.quote(STORE.rsplit('/', 1)[0])}",
        f"cat > /etc/systemd/system/{UNIT}.service <<'TRAINSTACK_UNIT'",
        unit_text(destination_uri),
        "TRAINSTACK_UNIT",
        "systemctl daemon-reload",
        f"systemctl enable --now {UNIT}.service",
        "",
    ]


def bootstrap_lines(
    role: str, name: str, cluster: ClusterConfig, rdzv_host: str, env_file: str
) -> tuple[list[str], list[str]]:
    """(lines before the node agent's install, lines after it) for `role`'s bootstrap: the
    worker's tracking URI (before its unit starts), the head's server; ([], []) without `managed`.

    Raises:
        ValueError: as `destination`.
    """
    if not on_head(cluster):
        return [], []
    if role != "head":
        return worker_env_lines(rdzv_host, env_file), []
    link = link_for(cluster.provider)
    return [], server_lines(destination(cluster, name), tuple(getattr(link, "MLFLOW_PACKAGES", ())))
