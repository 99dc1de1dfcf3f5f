"""The launcher's torchrun command line, environment and shutdown window; the shipped bundle."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import tarfile

import pytest

from nodeagent import ship
from nodeagent.job import NodeJob, read_env_file
from nodeagent.launcher import launcher_env, shutdown_timeout, torchrun_argv
from nodeagent.ship import bundle, install_script


def job(**overrides) -> NodeJob:
    base = {
        "command": ["/fsx/train.py", "--lr", "3e-4"],
        "rdzv_host": "10.0.0.5",
        "job_id": "c",
        "min_nodes": 2,
        "max_nodes": 4,
        "nproc_per_node": 8,
        "max_restarts": 3,
    }
    return NodeJob.from_dict({**base, **overrides})


def test_torchrun_argv_is_elastic_c10d_on_the_head_node():
    argv = torchrun_argv(job(cloud="aws", log_dir="/fsx/logs"), "10.0.0.9")
    assert argv[:3] == ["python3", "-m", "torch.distributed.run"]
    assert "--nnodes=2:4" in argv and "--nproc-per-node=8" in argv and "--rdzv-backend=c10d" in argv
    assert "--rdzv-endpoint=10.0.0.5:29400" in argv and "--rdzv-id=c" in argv and "--max-restarts=3" in argv
    assert "--rdzv-conf=is_host=false" in argv  # workers never host the store: the head does
    assert "--local-addr=10.0.0.9" in argv and "--shutdown-timeout=115" in argv
    assert "--log-dir=/fsx/logs" in argv and argv[-3:] == ["/fsx/train.py", "--lr", "3e-4"]


def test_module_and_extra_rendezvous_settings():
    argv = torchrun_argv(job(module=True, command=["pkg.train"], rdzv_conf={"join_timeout": "900"}), "10.0.0.9")
    assert argv[-2:] == ["-m", "pkg.train"] and "--rdzv-conf=is_host=false,join_timeout=900" in argv


@pytest.mark.parametrize(
    ("cloud", "given", "seconds"),
    [
        pytest.param("aws", None, 115, id="aws-2-minutes"),
        pytest.param("azure", None, 25, id="azure-30-s"),
        pytest.param("gcp", None, 25, id="gcp-30-s"),
        pytest.param("none", None, 25, id="none"),
        pytest.param("aws", 40, 40, id="given"),
    ],
)
def test_shutdown_window_is_the_notice_minus_a_margin(cloud, given, seconds):
    assert shutdown_timeout(job(cloud=cloud, shutdown_timeout=given)) == seconds


def test_environment_layers_node_bootstrap_then_job(tmp_path):
    env_file = tmp_path / "nccl.sh"
    env_file.write_text("export NCCL_SOCKET_IFNAME='^lo,docker'\nexport FI_PROVIDER=efa\n# comment\n")
    assert read_env_file(str(env_file)) == {"NCCL_SOCKET_IFNAME": "^lo,docker", "FI_PROVIDER": "efa"}
    env = launcher_env(
        job(env_file=str(env_file), env={"FI_PROVIDER": "tcp"}, checkpoint_dir="/fsx/ck"), {"PATH": "/usr/bin"}, "ens5"
    )
    assert env["FI_PROVIDER"] == "tcp" and env["NCCL_SOCKET_IFNAME"] == "^lo,docker" and env["PATH"] == "/usr/bin"
    assert env["TRAINSTACK_CHECKPOINT_DIR"] == "/fsx/ck" and env["GLOO_SOCKET_IFNAME"] == "ens5"
    assert env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] == "1"
    assert read_env_file(str(tmp_path / "missing.sh")) == {}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        pytest.param({"command": [], "rdzv_host": "h", "job_id": "j"}, "command: empty", id="empty"),
        pytest.param(
            {"command": ["t"], "rdzv_host": "h", "job_id": "j", "min_nodes": 3, "max_nodes": 2},
            "min_nodes/max_nodes",
            id="range",
        ),
        pytest.param({"command": ["t"], "rdzv_host": "h", "job_id": "j", "cloud": "oci"}, "cloud: 'oci'", id="cloud"),
        pytest.param({"command": ["t"], "rdzv_host": "h", "job_id": "j", "gpus": 8}, "unknown key", id="unknown"),
    ],
)
def test_bad_job_file_is_refused_naming_the_key(raw, message):
    with pytest.raises(ValueError, match=message):
        NodeJob.from_dict(raw)


def test_bundle_is_reproducible_and_runs_with_the_standard_library(tmp_path):
    first = bundle()
    ship._bundle.cache_clear()  # packed again, not answered from the process's memo
    assert bundle() == first
    with tarfile.open(fileobj=io.BytesIO(base64.b64decode(bundle()))) as tar:
        tar.extractall(tmp_path, filter="data")
    bad = subprocess.run(
        [sys.executable, "-S", "-m", "nodeagent", "oops"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "usage: python -m nodeagent run" in bad.stderr
    missing = subprocess.run(
        [sys.executable, "-S", "-m", "nodeagent", "run", str(tmp_path / "none.json")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2 and "job file" in missing.stderr
    watchers = subprocess.run(
        [sys.executable, "-S", "-c", "from nodeagent.notices import NOTICE_SECONDS; print(NOTICE_SECONDS)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    # every cloud's watcher ships with the agent and is found there, without the registry
    assert watchers.stdout.strip() == "{'aws': 120, 'azure': 30, 'gcp': 30}"


def test_install_script_writes_the_job_and_the_unit():
    node = {
        "command": ["/fsx/t.py"],
        "rdzv_host": "10.0.0.5",
        "job_id": "c",
        "python": "/fsx/venv/bin/python",
        "rdzv_port": 29400,
    }
    worker = install_script("worker", node, "/fsx", stop_seconds=125)
    assert json.dumps(node, sort_keys=True) in worker and "RequiresMountsFor=/fsx" in worker
    assert "ExecStart=/usr/bin/python3 -m nodeagent run /etc/trainstack/job.json" in worker
    assert "TimeoutStopSec=125" in worker and "systemctl enable --now trainstack-job.service" in worker
    # restarted after a failure, but not after a notice stopped the job (exit status 75)
    assert "Restart=on-failure" in worker and "RestartPreventExitStatus=75" in worker
    head = install_script("head", node, "/fsx")
    assert "ExecStart=/fsx/venv/bin/python -m nodeagent store 29400" in head
    # the store on the cloud's runtime, whatever the job's interpreter
    head = install_script("head", node, "/fsx", store_python="/opt/pytorch/bin/python")
    assert "ExecStart=/opt/pytorch/bin/python -m nodeagent store 29400" in head
    with pytest.raises(ValueError, match="role: 'login'"):
        install_script("login", node, "/fsx")


CLOUDS = ["aws", "azure", "gcp", "none"]
# Imports each bundle's `nodeagent.notices` on its own, as a node's interpreter would (no site
# packages, the bundle first on the path, nothing of another bundle's loaded).
WATCHERS_OF_EACH = """
import json, sys
found = {}
for folder in sys.argv[1:]:
    for name in [m for m in sys.modules if m == "nodeagent" or m.startswith("nodeagent.")]:
        del sys.modules[name]
    sys.path.insert(0, folder)
    from nodeagent.notices import WATCHERS
    found[folder] = sorted(WATCHERS)
    sys.path.remove(folder)
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def watchers_shipped(tmp_path_factory) -> dict[str, list[str]]:
    """Cloud -> the notice watchers its node's bundle registers (one interpreter for all four)."""
    root = tmp_path_factory.mktemp("bundles")
    for cloud in CLOUDS:
        with tarfile.open(fileobj=io.BytesIO(base64.b64decode(bundle(ship.shipped_for(cloud))))) as tar:
            tar.extractall(root / cloud, filter="data")
    found = subprocess.run(
        [sys.executable, "-S", "-c", WATCHERS_OF_EACH, *(str(root / cloud) for cloud in CLOUDS)],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return {cloud: json.loads(found.stdout)[str(root / cloud)] for cloud in CLOUDS}


@pytest.mark.parametrize("cloud", CLOUDS)
def test_a_node_gets_only_its_own_clouds_watcher(watchers_shipped, cloud):
    assert watchers_shipped[cloud] == ([] if cloud == "none" else [cloud])


def test_a_changed_agent_source_ships_again(tmp_path, monkeypatch):
    """The packed bundle is kept per process for the same sources only: an edited module
    (another checkout, a hand edit) is packed afresh."""
    before = bundle()
    for name in ship._SHIPPED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ship._PACKAGE / name).read_text())
    monkeypatch.setattr(ship, "_PACKAGE", tmp_path)
    assert bundle() == before
    (tmp_path / "job.py").write_text((tmp_path / "job.py").read_text() + "\nEDITED = 1\n")
    with tarfile.open(fileobj=io.BytesIO(base64.b64decode(bundle()))) as tar:
        shipped = tar.extractfile("nodeagent/job.py").read().decode()
    assert shipped.endswith("EDITED = 1\n")
