"""The `job:` part of every node's bootstrap: the node agent, its job file and its unit.

Pure functions, shared by the clouds' cloud-init / user data builders. Workers run the job
under torchrun (`nodeagent.launcher`); the head node, on-demand and never spot, keeps the
c10d rendezvous store (`nodeagent.store`) that every worker's torchrun points at.
"""

from __future__ import annotations

import hashlib
import json

from clouds.contract import ClusterConfig
from clouds.job_runtime import job_python, store_python
from clouds.job_secrets import node_secrets, plain_env
from clouds.mlflow_head import bootstrap_lines
from clouds.mounts import SHARED_MOUNT
from clouds.registry import CLOUDS
from clouds.tracking import tracking_env
from nodeagent import publisher, relay, ship
from nodeagent.job import RDZV_PORT
from nodeagent.launcher import NOTICE_MARGIN_SECONDS
from nodeagent.notices import NOTICE_SECONDS

# The watcher each cloud's nodes run (`Cloud.notice_watcher`); clouds without one get no notice
# (their nodes are replaced, when at all, without warning).
NOTICE_CLOUDS: dict[str, str] = {name: c.notice_watcher for name, c in CLOUDS.items() if c.notice_watcher}


def rendezvous_file(name: str, mount_point: str) -> str:
    """Where the head node of cluster `name` announces its address (`nodeagent.job.announce`)."""
    return f"{mount_point}/trainstack/rendezvous/{name}"


def job_doc_file(name: str, mount_point: str) -> str:
    """Where the head node of cluster `name` publishes the job channel (`nodeagent.relay`)."""
    return f"{mount_point}/trainstack/jobs/{name}.json"


# What a job is, for its rendezvous id: a change to any of these starts a new job under a new id
# (`rendezvous_id`), so nodes on the old and the new settings never join one rendezvous. The
# node count is not among them: it is the group's size, not the job's program.
JOB_IDENTITY = ("command", "module", "workdir", "checkpoint_dir", "nproc_per_node", "env", "python")


def rendezvous_id(name: str, job: dict) -> str:
    """`<name>-<8 hex>`: the cluster name and a digest of the job's `JOB_IDENTITY` fields, and
    of where its secrets are read and its launcher when it has them (a torchrun job without
    secrets keeps the id it always had)."""
    fields = {k: job.get(k) for k in JOB_IDENTITY}
    if job.get("secrets"):  # where the secrets are read (a job without any keeps its old id)
        fields["secrets"] = job["secrets"]
    if "launcher" in job:  # paddle only: torchrun is the node agent's default
        fields["launcher"] = job["launcher"]
    identity = json.dumps(fields, sort_keys=True)
    return f"{name}-{hashlib.sha256(identity.encode()).hexdigest()[:8]}"


def job_identity(cluster: ClusterConfig) -> str:
    """The 8-hex digest of what the cluster's job runs (`rendezvous_id` without the name), as
    its nodes' job files hold it; the review compares it across a change."""
    return rendezvous_id("c", node_job("c", cluster, "0.0.0.0", SHARED_MOUNT, "")).rsplit("-", 1)[1]


def head_job(job: dict) -> dict:
    """What the head's store needs of the job (its port, the rendezvous file, the job document
    it publishes and its cloud, all fixed by the cluster's name and provider): nothing a job or
    node-count edit changes, so such an edit leaves the head's bootstrap, and so the head and
    its in-memory rendezvous, alone. The job itself reaches the head through its job channel."""
    return {key: job[key] for key in ("rdzv_port", "rdzv_file", "job_doc", "cloud", "launcher") if key in job}


def channel_text(name: str, cluster: ClusterConfig, mount_point: str = SHARED_MOUNT) -> str:
    """The job channel's text for the head node of cluster `name` (`nodeagent.publisher.encode` of
    the workers' `RELAYED` settings); `pulumi up` writes it to a head property the cloud updates
    in place (AWS tags, GCP metadata, Azure user data), "" without a job.

    Args:
        name, cluster, mount_point: as for `node_job` (the settings do not depend on the
            head's address or the NCCL environment file).
    """
    if cluster.job is None:
        return ""
    job = node_job(name, cluster, "0.0.0.0", mount_point, "")
    return publisher.encode({key: job[key] for key in relay.RELAYED})


def node_job(name: str, cluster: ClusterConfig, rdzv_host: str, mount_point: str, env_file: str) -> dict:
    """The `nodeagent.job.NodeJob` fields for this cluster's nodes (JSON-ready).

    Args:
        name: the cluster name; the rendezvous id and the default checkpoint folder.
        cluster: the cluster config; `cluster.job` must be set.
        rdzv_host: the head node's private address (an IP or DNS name); the address the head
            announces in `rendezvous_file` wins once it is there.
        mount_point: where the shared file system is mounted on every node (`/fsx`).
        env_file: the bootstrap's NCCL / EFA / InfiniBand environment file.

    Raises:
        ValueError: when the cluster has no job.
    """
    job = cluster.job
    if job is None:
        raise ValueError("node_job: the cluster has no job")
    workdir = job.workdir or mount_point
    fields = {
        "command": list(job.argv),
        "module": job.module,
        "workdir": workdir,
        "checkpoint_dir": job.checkpoint_dir or f"{workdir}/checkpoints/{name}",
        "log_dir": f"{mount_point}/trainstack/logs/{name}",
        "nproc_per_node": job.nproc_per_node or cluster.accelerator_count,
        "min_nodes": job.min_nodes or cluster.nodes,
        "max_nodes": cluster.nodes,
        "max_restarts": job.max_restarts,
        "rdzv_host": rdzv_host,
        "rdzv_port": RDZV_PORT,
        # the head announces its address here at every start; workers read it before each launch
        "rdzv_file": rendezvous_file(name, mount_point),
        # the head publishes job edits here; workers follow it (`nodeagent.relay`)
        "job_doc": job_doc_file(name, mount_point),
        "job_id": "",
        "env": {**plain_env(job), **tracking_env(job.tracking, None)},
        "env_file": env_file,
        "python": job_python(cluster),
        "cloud": NOTICE_CLOUDS.get(cluster.provider, "none"),
    }
    # where each secret is read at start with the node's identity (references, never values);
    # only when there are some, so a job without secrets writes the job file it always did
    if secrets := node_secrets(cluster.provider, name, cluster.region, job):
        fields["secrets"] = secrets
    if job.launcher == "paddle":  # torchrun is the node agent's default: its job files stay as they were
        fields["launcher"] = "paddle"
    if CLOUDS[cluster.provider].run_channel:  # `trainstack run` reaches the workers through the
        fields["follow_runs"] = True  # head's job channel, also after their job ended (`nodeagent.follow`)
    fields["job_id"] = rendezvous_id(name, fields)
    return fields


def job_script(role: str, name: str, cluster: ClusterConfig, rdzv_host: str, mount_point: str, env_file: str) -> str:
    """Bash for one node's bootstrap: unpack the agent, write the job, start `role`'s unit.

    Args:
        role: `worker` or `head`.
        name, cluster, rdzv_host, mount_point, env_file: as for `node_job`.

    Returns:
        The snippet (no shebang), to append to the node's user data; "" without a job.
    """
    if cluster.job is None:
        return ""
    job = node_job(name, cluster, rdzv_host, mount_point, env_file)
    window = NOTICE_SECONDS.get(job["cloud"], 30)
    if role == "head":
        job = head_job(job)
    # job.tracking: {mlflow: managed}: the head's server, the workers' tracking URI (`clouds.mlflow_head`)
    before, after = bootstrap_lines(role, name, cluster, rdzv_host, env_file)
    agent = ship.install_script(
        role, job, mount_point, stop_seconds=window + NOTICE_MARGIN_SECONDS, store_python=store_python(cluster)
    )
    return "\n".join([*before, agent.rstrip("\n"), *after]).rstrip("\n") + "\n"
