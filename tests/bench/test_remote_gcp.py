"""`bench run --send`, `bench fetch` and the job's progress on GCP over SSH through IAP: the
workers from a recorded `instances.list` answer (Compute Engine API v1's documented shape,
served by `responses`), and the script each `gcloud compute ssh ... --command='sudo bash -s'`
would carry run by bash here on its standard input (the `gcloud` argv asserted, not run)."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import responses
from typer.testing import CliRunner

from trainstack.bench import gcp_run
from trainstack.bench.node_run import RemoteError
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
ANSWERS = ROOT / "tests" / "fixtures"
INSTANCES = "https://compute.googleapis.com/compute/v1/projects/p/zones/europe-north1-c/instances"
IAP = "35.235.240.0/20"
NOW = datetime(2026, 12, 7, 13, 0, tzinfo=timezone.utc)
# Compute Engine's error shape; the message for a path without guest attributes is assumed
NOT_FOUND = {
    "error": {
        "code": 404,
        "message": "The resource 'projects/p/zones/europe-north1-c/instances/train-head-3c4d5e6/guestAttributes/trainstack/' was not found",
        "errors": [{"message": "not found", "domain": "global", "reason": "notFound"}],
    }
}


def _instances(name: str = "train") -> dict:
    answer = json.loads((ANSWERS / "remote" / "gcp-instances.json").read_text())
    for item in answer["items"]:  # the cluster's VMs, named as the stack's cluster
        item["name"] = item["name"].replace("train-", f"{name}-", 1)
        item["labels"]["trainstack-cluster"] = name
    return answer


def _stack(folder: Path, name: str, ssh_cidrs: str, job: bool = True) -> None:
    text = (ROOT / "stacks" / "Pulumi.training-a3-gcp.yaml").read_text().replace("ssh_cidrs: []", ssh_cidrs)
    if job:
        text = text.replace("    provider: gcp\n", "    provider: gcp\n    job:\n      command: /fsx/train.py\n", 1)
    (folder / "stacks").mkdir(exist_ok=True)
    (folder / "stacks" / f"Pulumi.{name}.yaml").write_text(text)
    shutil.copy(ROOT / "Pulumi.yaml", folder / "Pulumi.yaml")


class Here:
    """Runs each SSH session's script with bash on this machine (after checking the argv), with
    the paths in `moves` moved; records the nodes it was sent to."""

    def __init__(self, moves: dict[str, str]) -> None:
        self.moves, self.nodes, self.one_at_a_time = (
            moves,
            list[str](),
            threading.Lock(),
        )  # one machine plays every node

    def __call__(self, argv, input, **options):  # noqa: A002 - subprocess.run's own name
        assert argv[:3] == ["gcloud", "compute", "ssh"] and argv[4:] == [
            "--zone=europe-north1-c",
            "--project=p",
            "--tunnel-through-iap",
            "--quiet",
            "--command=sudo bash -s",
        ]
        self.nodes.append(argv[3])
        for old, new in self.moves.items():
            input = input.replace(old, new)  # noqa: A001
        with self.one_at_a_time:
            return subprocess.run(["bash", "-s"], input=input, capture_output=True, text=True, timeout=30, check=False)


@pytest.fixture()
def google(monkeypatch):
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "token-6")
    monkeypatch.setenv("GOOGLE_PROJECT", "p")


@responses.activate
def test_the_workers_are_the_running_vms_of_the_clusters_groups(google) -> None:
    from clouds.contract import ClusterConfig
    from tests.clusters import BASE_CLUSTER

    fields = {**BASE_CLUSTER, "provider": "gcp", "region": "europe-north1", "zone": "europe-north1-c"}
    cluster = ClusterConfig.model_validate({**fields, "instance_type": "a3-highgpu-8g", "ssh_cidrs": [IAP]})
    responses.get(INSTANCES, json=_instances())
    assert gcp_run.GcpRunner(cluster, "train", {}).nodes() == ["train-nodes-9f8e7d6-b1m4", "train-nodes-9f8e7d6-x7k2"]
    assert responses.calls[0].request.params == {  # type: ignore[attr-defined]
        "filter": 'labels.trainstack-cluster = "train"'
    }
    with pytest.raises(RemoteError, match=r"add 35\.235\.240\.0/20 \(IAP's TCP forwarding range\) to ssh_cidrs"):
        gcp_run.GcpRunner(cluster.model_copy(update={"ssh_cidrs": ()}), "train", {}).nodes()


@responses.activate
def test_status_reads_the_progress_on_a_worker_over_iap_when_the_head_published_none(
    google, tmp_path, monkeypatch
) -> None:
    from tests.cli.helpers import run
    from tests.trainstack.status.test_progress import _touch

    _touch(
        tmp_path / "logs" / "train" / "r" / "attempt_0" / "0" / "stdout.log", "step=77\n", NOW - timedelta(minutes=4)
    )
    here = Here({"/fsx/checkpoints": str(tmp_path / "checkpoints"), "/fsx/trainstack/logs": str(tmp_path / "logs")})
    monkeypatch.setattr(gcp_run, "_run", here)
    monkeypatch.setenv("TRAINSTACK_NOW", NOW.isoformat())  # a patched `now` would stick in modules importing it
    where = "https://compute.googleapis.com/compute/v1/projects/p/zones/europe-north1-c/instanceGroupManagers"
    responses.get(where, json=json.loads((ANSWERS / "status" / "gcp-mig-list.json").read_text()))
    responses.get(f"{where}/train-nodes-9f8e7d6/listErrors", json={})
    responses.get(f"{where}/train-nodes-on-demand/listErrors", json={})
    responses.get(INSTANCES, json=_instances())
    responses.get(f"{INSTANCES}/train-head-3c4d5e6/getGuestAttributes", status=404, json=NOT_FOUND)
    _stack(tmp_path, "train", f"ssh_cidrs: [{IAP}]")
    shutil.copy(ROOT / "__main__.py", tmp_path)
    result = run("status", "-s", "train", "--project-dir", str(tmp_path))
    assert result.stdout.splitlines()[-1] == "progress: last step 77 (log written 4 min ago); no checkpoint yet"
    assert here.nodes == ["train-nodes-9f8e7d6-b1m4"]  # one worker answers for the job
    _stack(tmp_path, "train", "ssh_cidrs: []")
    line = run("status", "-s", "train", "--project-dir", str(tmp_path)).stdout.splitlines()[-1]
    assert line.startswith("progress: not read: GCP has no run-command service; trainstack reaches the nodes by")


@responses.activate
def test_bench_run_send_starts_the_run_on_every_worker_and_names_one_that_refused(
    google, tmp_path, monkeypatch
) -> None:
    """Over SSH the run is started detached (the session ends first): the script written and
    `systemd-run` called on each worker; a worker whose job still runs refuses, named."""
    from trainstack.bench.remote import JOB_FILE, JOB_UNIT_FILE, SCRIPTS

    (tmp_path / "job.json").write_text("{}")
    (tmp_path / "job.service").touch()
    moves = {
        JOB_FILE: str(tmp_path / "job.json"),
        JOB_UNIT_FILE: str(tmp_path / "job.service"),
        SCRIPTS: str(tmp_path / "scripts"),
        "systemd-run ": "echo systemd-run ",
    }
    here = Here(moves)
    monkeypatch.setattr(gcp_run, "_run", here)
    responses.get(INSTANCES, json=_instances("training-a3-gcp"))
    _stack(tmp_path, "training-a3-gcp", f"ssh_cidrs: [{IAP}]")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["bench", "run", "-s", "training-a3-gcp", "--send", "--steps", "5"])
    assert result.exit_code == 0, result.output
    assert "sent to 2 nodes of training-a3-gcp (2 SSH sessions through IAP)" in result.output
    assert sorted(here.nodes) == ["training-a3-gcp-nodes-9f8e7d6-b1m4", "training-a3-gcp-nodes-9f8e7d6-x7k2"]
    [script] = list((tmp_path / "scripts").iterdir())
    assert "--steps 5" in script.read_text()
    subprocess.run(["bash", "-n", str(script)], check=True)
    moves["if systemctl is-active --quiet trainstack-job; then"] = "if true; then"  # the job still runs there
    result = CliRunner().invoke(app, ["bench", "run", "-s", "training-a3-gcp", "--send"])
    assert result.exit_code == 1
    assert "training-a3-gcp-nodes-9f8e7d6-b1m4: exit 1: " in result.output
    assert "the stack's job is running; stop it (sudo systemctl stop trainstack-job) to benchmark" in result.output


def test_a_session_that_cannot_start_is_named(monkeypatch, google) -> None:
    from types import SimpleNamespace

    def no_gcloud(argv, **options):
        raise FileNotFoundError(argv[0])

    monkeypatch.setattr(gcp_run, "_run", no_gcloud)
    cluster = SimpleNamespace(provider="gcp", zone="europe-north1-c", ssh_cidrs=(IAP,))
    runner = gcp_run.GcpRunner(cluster, "train", {})
    with pytest.raises(RemoteError, match="^n1: Failed: gcloud not found: install the Google Cloud CLI"):
        runner.wait(runner.send(["n1"], ["true"], "test", 5), 10)
    with pytest.raises(RemoteError, match="no running worker labelled trainstack-cluster=train"):
        runner.wait({}, 10)


@responses.activate
def test_status_reads_the_progress_the_head_published_without_iap(google, tmp_path, monkeypatch) -> None:
    """The default stack (no SSH admitted): the head's guest attribute, written by its agent
    (`nodeagent.progress.lines` on a folder laid out as torchrun leaves it), read back through
    `instances.getGuestAttributes` in the API's documented shape; no SSH session."""
    from nodeagent.progress import lines
    from tests.cli.helpers import run
    from tests.trainstack.status.test_progress import _touch

    _touch(tmp_path / "logs" / "r" / "attempt_2" / "1" / "stdout.log", "step 9,120\n", NOW - timedelta(minutes=1))
    _touch(tmp_path / "ckpt" / "step-9000", "x", NOW - timedelta(hours=3))
    published = lines(str(tmp_path / "ckpt"), str(tmp_path / "logs"))
    monkeypatch.setattr(gcp_run, "_run", lambda *a, **k: pytest.fail("no SSH session without IAP"))
    monkeypatch.setenv("TRAINSTACK_NOW", NOW.isoformat())  # a patched `now` would stick in modules importing it
    where = "https://compute.googleapis.com/compute/v1/projects/p/zones/europe-north1-c/instanceGroupManagers"
    responses.get(where, json=json.loads((ANSWERS / "status" / "gcp-mig-list.json").read_text()))
    responses.get(f"{where}/train-nodes-9f8e7d6/listErrors", json={})
    responses.get(f"{where}/train-nodes-on-demand/listErrors", json={})
    responses.get(INSTANCES, json=_instances())
    attributes = {
        "kind": "compute#guestAttributes",
        "queryPath": "trainstack/",
        "queryValue": {"items": [{"namespace": "trainstack", "key": "progress", "value": published}]},
        "selfLink": f"{INSTANCES}/train-head-3c4d5e6/getGuestAttributes?queryPath=trainstack/",
    }
    responses.get(f"{INSTANCES}/train-head-3c4d5e6/getGuestAttributes", json=attributes)
    _stack(tmp_path, "train", "ssh_cidrs: []")
    shutil.copy(ROOT / "__main__.py", tmp_path)
    result = run("status", "-s", "train", "--project-dir", str(tmp_path))
    assert result.stdout.splitlines()[-1] == (
        "progress: last step 9,120 (log written 1 min ago); last checkpoint step-9000 (2026-12-07 10:00 UTC, 3.0 h ago)"
    )
    asked = [c.request for c in responses.calls if "getGuestAttributes" in str(c.request.url)]
    assert asked[0].params == {"queryPath": "trainstack/"}  # type: ignore[attr-defined]
