"""`job.launcher: paddle` on VM stacks: each worker runs `python -m paddle.distributed.launch` as a
participant of the head's Paddle master (`nodeagent.paddle_master`, Paddle's HTTP key-value
protocol served with the standard library on the rendezvous port); torchrun jobs keep their job
files and rendezvous ids. The master is exercised over real HTTP on loopback."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from clouds.contract import JobConfig
from clouds.job_bootstrap import head_job, node_job, rendezvous_id
from nodeagent import ship
from nodeagent.job import NodeJob
from nodeagent.launcher import launch_argv, torchrun_argv
from nodeagent.paddle_master import PaddleMaster
from tests.clusters import example_config


def _job(**changes) -> NodeJob:
    values = {
        "command": ("/fsx/code/train.py", "--epochs", "3"),
        "rdzv_host": "10.0.0.5",
        "job_id": "c-1a2b3c4d",
        "nproc_per_node": 8,
        "min_nodes": 2,
        "max_nodes": 2,
        "max_restarts": 3,
        "log_dir": "/fsx/trainstack/logs/c",
        "launcher": "paddle",
    }
    return NodeJob(**{**values, **changes})


def test_paddle_argv_meets_at_the_heads_master():
    assert launch_argv(_job(), "10.0.1.7") == [
        "python3",
        "-m",
        "paddle.distributed.launch",
        "--master=10.0.0.5:29400",
        "--nnodes=2",
        "--nproc_per_node=8",
        "--job_id=c-1a2b3c4d",
        "--max_restart=3",
        "--host=10.0.1.7",
        "--log_dir=/fsx/trainstack/logs/c/paddle-10.0.1.7",
        "/fsx/code/train.py",
        "--epochs",
        "3",
    ]
    torchrun = _job(launcher="torchrun")
    assert launch_argv(torchrun, "10.0.1.7") == torchrun_argv(torchrun, "10.0.1.7")
    with pytest.raises(ValueError, match="launcher: 'mpi'; one of torchrun, paddle"):
        _job(launcher="mpi")


def _http(method: str, url: str, body: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def test_paddle_master_speaks_paddles_key_value_protocol():
    master = PaddleMaster(0, "127.0.0.1")
    # polled every 5 ms: `shutdown()` waits for the loop's next poll (0.5 s by default)
    thread = threading.Thread(target=master.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{master.server_address[1]}"
    try:
        assert _http("GET", f"{base}/healthy") == (200, json.dumps({"/healthy": "ok"}).encode())
        assert _http("GET", f"{base}/job/peers/") == (404, b"")  # nobody yet: participants wait
        assert _http("PUT", f"{base}/job/peers/0", b'{"ip": "10.0.1.7"}')[0] == 200
        assert _http("POST", f"{base}/job/peers/1", b'{"ip": "10.0.1.8"}')[0] == 200
        code, body = _http("GET", f"{base}/job/peers/")
        assert code == 200 and json.loads(body) == {
            "/job/peers/0": '{"ip": "10.0.1.7"}',
            "/job/peers/1": '{"ip": "10.0.1.8"}',
        }
        assert _http("DELETE", f"{base}/job/peers/0")[0] == 200
        assert _http("DELETE", f"{base}/job/peers/0")[0] == 404
    finally:
        master.shutdown()
        master.server_close()


def test_head_serves_the_paddle_master_and_only_paddle_jobs_ship_it():
    cluster = example_config("aws", job={"command": "/fsx/code/train.py", "launcher": "paddle"})
    job = node_job("c", cluster, "10.0.0.5", "/fsx", "/etc/profile.d/x.sh")
    assert job["launcher"] == "paddle"
    head = ship.install_script("head", head_job(job), "/fsx", store_python="/opt/pytorch/bin/python")
    assert "ExecStart=/opt/pytorch/bin/python -m nodeagent paddle-master 29400 /fsx/trainstack/rendezvous/c" in head
    assert "paddle_master.py" in ship.shipped_for("aws", launcher="paddle")
    assert "paddle_master.py" not in ship.shipped_for("aws")


def test_a_torchrun_job_keeps_its_file_and_id_and_paddle_is_another_job():
    torchrun = node_job("c", example_config("aws", job={"command": "/fsx/code/train.py"}), "h", "/fsx", "")
    assert "launcher" not in torchrun and "launcher" not in head_job(torchrun)
    paddle = node_job(
        "c", example_config("aws", job={"command": "/fsx/code/train.py", "launcher": "paddle"}), "h", "/fsx", ""
    )
    assert paddle["job_id"] != torchrun["job_id"]
    assert rendezvous_id("c", {**torchrun, "launcher": "paddle"}) == paddle["job_id"]


@pytest.mark.parametrize(
    ("job", "field"),
    [
        pytest.param({"command": "pkg.train", "module": True}, "job.module", id="module"),
        pytest.param({"script": "/fsx/run.sh"}, "job.script", id="script"),
        pytest.param({"command": "/fsx/train.py", "min_nodes": 1}, "job.min_nodes", id="elastic"),
    ],
)
def test_paddle_refuses_what_its_launcher_cannot_run(job, field):
    with pytest.raises(ValueError, match=field):
        JobConfig.model_validate({**job, "launcher": "paddle"})
