"""Shell lines on a GCP cluster's worker VMs over SSH through IAP TCP forwarding.

Compute Engine has no run-command service like AWS Systems Manager or Azure Run Command; its
documented way onto a VM without an external address is `gcloud compute ssh NODE
--tunnel-through-iap`, with OS Login (the nodes set `enable-oslogin`, `clouds.gcp.machine`).
It works once the stack's firewall admits IAP's source range on TCP 22 (`ssh_cidrs` lists it:
the GCP `Cloud.access`, "Using IAP for TCP forwarding"); a stack that does not is refused in one
line with that fix. The user needs `roles/iap.tunnelResourceAccessor` and
`roles/compute.osAdminLogin` (sudo); the nodes need no role.

The workers are the RUNNING instances labelled `trainstack-cluster=<name>` in the cluster's
zone whose names come from its node groups (`<name>-nodes...`: Compute Engine API v1
`instances.list` with a label filter; the head `<name>-head-...` keeps the rendezvous and runs no
job). Each gets the lines as one script on the standard input of `sudo bash -s`, all at once
(one `gcloud` per node, in threads). An SSH session ends with the user's connection, so a long
benchmark is started detached (`detaches`).

The job's progress needs no SSH: the head's agent writes it to a guest attribute every minute
(`nodeagent.publisher`; any process on a VM may write its own, no role), and
`published_progress` reads it with `instances.getGuestAttributes`
(`compute.instances.getGuestAttributes`; Compute Engine, "Setting and querying guest
attributes").
"""

from __future__ import annotations

import subprocess
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from clouds.gcp.labels import sanitize_label_value
from trainstack.bench.node_run import Invocation, RemoteError

LABEL = "trainstack-cluster"
# nodeagent.clouds.gcp.PROGRESS_ATTRIBUTE (the agent ships without trainstack): namespace/key
PROGRESS_NAMESPACE, PROGRESS_KEY = "trainstack", "progress"
REMOTE_SHELL = "sudo bash -s"
MAX_SESSIONS = 32  # a choice: gcloud processes at once


def _run(argv: list[str], **options: Any) -> subprocess.CompletedProcess:
    """`subprocess.run` (one place, so the tests can run the script here instead of over SSH)."""
    return subprocess.run(argv, check=False, **options)


def iap_problem(cluster: Any, stack: str) -> str | None:
    """Why the stack's nodes cannot be reached through IAP (its firewall does not admit IAP's
    range on TCP 22), with the fix; None when they can."""
    from trainstack.bench.access import node_access

    way = node_access(cluster.provider)
    missing = [c for c in way.ssh_cidrs if c not in cluster.ssh_cidrs]
    if not missing:
        return None
    return (
        f"GCP has no run-command service; trainstack reaches the nodes by `gcloud compute ssh --tunnel-through-iap`, "
        f"which the stack's firewall refuses: add {', '.join(missing)} ({way.ssh_cidrs_source}) to ssh_cidrs in "
        f"stacks/Pulumi.{stack}.yaml and run `pulumi up -s {stack}`"
    )


def worker_names(items: list[dict[str, Any]], name: str) -> list[str]:
    """The running workers among `instances.list` items of cluster `name`, sorted."""
    return sorted(
        str(i["name"])
        for i in items
        if i.get("status") == "RUNNING" and str(i.get("name", "")).startswith(f"{name}-nodes")
    )


def ssh_argv(node: str, zone: str, project: str) -> list[str]:
    """`gcloud compute ssh` to `node` through IAP, running the script it reads on standard input as root."""
    return [
        "gcloud",
        "compute",
        "ssh",
        node,
        f"--zone={zone}",
        f"--project={project}",
        "--tunnel-through-iap",
        "--quiet",
        f"--command={REMOTE_SHELL}",
    ]


class GcpRunner:
    """SSH through IAP to the cluster's workers (`trainstack.bench.node_run.NodeRunner`)."""

    detaches = True

    def __init__(self, cluster: Any, stack: str, settings: dict) -> None:
        from profiles.preflight import gcp_api

        self.api, self.stack, self.zone = gcp_api, stack, cluster.zone
        self.problem = iap_problem(cluster, stack)
        self.token, self.project = gcp_api.credentials(settings)

    def _instances(self) -> list[dict[str, Any]]:
        """The cluster's VMs in its zone (`instances.list`, filtered by the cluster label)."""
        where = f"projects/{self.project}/zones/{self.zone}/instances"
        return self.api.listed(where, self.token, {"filter": f'labels.{LABEL} = "{sanitize_label_value(self.stack)}"'})

    def nodes(self) -> list[str]:
        """The running workers' instance names.

        Raises:
            RemoteError: the stack's firewall does not admit IAP (one line with the fix).
        """
        if self.problem:
            raise RemoteError(self.problem)
        return worker_names(self._instances(), self.stack)

    def published_progress(self) -> str | None:
        """The progress lines the head publishes as its guest attribute (`nodeagent/clouds/gcp.py`
        `PROGRESS_ATTRIBUTE`; `instances.getGuestAttributes`, no SSH), or None when there is no
        running head or no such attribute (guest attributes off, an agent from before them)."""
        from profiles.preflight.finding import PreflightError

        heads = sorted(
            i["name"]
            for i in self._instances()
            if i.get("status") == "RUNNING" and i["name"].startswith(f"{self.stack}-head")
        )
        if not heads:
            return None
        where = f"projects/{self.project}/zones/{self.zone}/instances/{heads[0]}/getGuestAttributes"
        try:
            answer = self.api.get(where, self.token, {"queryPath": f"{PROGRESS_NAMESPACE}/"})
        except PreflightError as exc:
            if "(404)" in str(exc):  # no guest attribute under the path (or guest attributes off)
                return None
            raise
        items = (answer.get("queryValue") or {}).get("items", [])
        found = [i.get("value", "") for i in items if i.get("key") == PROGRESS_KEY]
        return found[0] if found else None

    def send(self, nodes: list[str], commands: list[str], comment: str, timeout_seconds: int) -> dict[str, Future]:
        """Start one SSH session per node (at most `MAX_SESSIONS` at once); node -> its future."""
        script = "\n".join(commands) + "\n"
        pool = ThreadPoolExecutor(max_workers=max(1, min(MAX_SESSIONS, len(nodes))))
        futures = {node: pool.submit(self._ssh, node, script, timeout_seconds) for node in nodes}
        pool.shutdown(wait=False)
        return futures

    def _ssh(self, node: str, script: str, timeout_seconds: int) -> Invocation:
        try:
            done = _run(
                ssh_argv(node, self.zone, self.project),
                input=script,
                capture_output=True,
                text=True,
                timeout=timeout_seconds,
            )
        except FileNotFoundError:
            return Invocation(node, "Failed", "gcloud not found: install the Google Cloud CLI (gcloud) and log in")
        except subprocess.TimeoutExpired:
            return Invocation(node, "TimedOut", f"no end after {timeout_seconds} s")
        if done.returncode == 0:
            return Invocation(node, "Success", done.stdout)
        return Invocation(node, f"exit {done.returncode}", f"{done.stdout}\n{done.stderr}")

    def wait(self, handle: dict[str, Future], deadline_seconds: float, pause: float = 10.0) -> list[Invocation]:
        """Each node's run once all have ended, in `handle`'s order.

        Raises:
            RemoteError: no node, one did not succeed, or the deadline passed.
        """
        if not handle:
            raise RemoteError(f"no running worker labelled {LABEL}={self.stack} in {self.zone}; is the stack up?")
        runs = []
        for node, future in handle.items():
            try:
                runs.append(future.result(timeout=deadline_seconds))
            except FutureTimeout:
                raise RemoteError(f"SSH to {node} still running after {deadline_seconds:.0f} s") from None
        for run in runs:
            if run.status != "Success":
                raise RemoteError(f"{run.instance_id}: {run.status}: {run.output.strip()[-300:] or 'no output'}")
        return runs

    def named(self, handle: dict[str, Future]) -> str:
        """`<n> SSH sessions through IAP`."""
        return f"{len(handle)} SSH sessions through IAP"


Runner = GcpRunner
