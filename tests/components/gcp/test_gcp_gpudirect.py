"""GPUDirect in the GCP node bootstrap: TCPX (A3 High), TCPXO (A3 Mega), the gIB plugin for
GPUDirect RDMA (A3 Ultra, A4): the right plugin and receive-datapath manager per machine type,
nothing for types that need none, and the NCCL variables written only when the setup worked
(the snippet is run with stub commands)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clouds.gcp.bootstrap import gpudirect_lines, startup_script
from clouds.gcp.gpudirect import BY_MACHINE_TYPE, GIB_A3_ULTRA, GIB_A4, TCPX, TCPXO
from clouds.gcp.nics import GPUDIRECT
from clouds.node_bootstrap import ENV_FILE
from nodeagent.job import read_env_file
from tests.components.gcp.gcp_harness import make_config

BASH = shutil.which("bash")


def _script(instance_type: str, role: str = "worker", **changes) -> str:
    config = make_config(instance_type=instance_type, **changes)
    return startup_script("train", config, role, None, None, None, None)


@pytest.mark.parametrize(
    ("instance_type", "changes", "expected"),
    [
        pytest.param("a3-highgpu-8g", {}, TCPX, id="a3-high-tcpx"),
        pytest.param("a3-megagpu-8g", {}, TCPXO, id="a3-mega-tcpxo"),
        pytest.param("a3-highgpu-8g", {"interconnect": "none"}, None, id="a3-high-one-nic"),
        pytest.param("a3-ultragpu-8g", {}, GIB_A3_ULTRA, id="a3-ultra-gib"),
        pytest.param("a4-highgpu-8g", {}, GIB_A4, id="a4-gib"),
        pytest.param("a4-highgpu-8g", {"interconnect": "none"}, None, id="a4-one-nic"),
        pytest.param("a2-highgpu-8g", {"accelerator": "A100"}, None, id="a2-none"),
    ],
)
def test_each_machine_type_gets_its_plugin_or_none(instance_type, changes, expected):
    script = _script(instance_type, **changes)
    if expected is None:
        assert "receive-datapath-manager" not in script and "nccl-plugin" not in script
        return
    for other in (TCPX, TCPXO, GIB_A3_ULTRA):  # A3 Ultra and A4 share the gIB image
        if other.plugin_image != expected.plugin_image:
            assert other.plugin_image not in script and (not other.rxdm_image or other.rxdm_image not in script)
    assert f"{expected.plugin_image} install --install-nccl" in script
    assert f"export NCCL_NET={expected.env['NCCL_NET']}" in script
    if expected.rxdm_image:
        assert expected.rxdm_image in script and f"--entrypoint={expected.rxdm_entrypoint}" in script


def test_every_gpudirect_machine_type_has_its_plugin():
    assert set(BY_MACHINE_TYPE) == set(GPUDIRECT)
    names = {"tcpx": "GPUDirect-TCPX", "tcpxo": "GPUDirect-TCPXO", "rdma": "GPUDirect-RDMA (gIB)"}
    assert {t: BY_MACHINE_TYPE[t].name for t in GPUDIRECT} == {t: names[f] for t, (f, _) in GPUDIRECT.items()}


@pytest.mark.parametrize(
    ("instance_type", "tuner"),
    [
        pytest.param("a3-ultragpu-8g", "tuner_config_a3u.txtpb", id="a3-ultra-h200"),
        pytest.param("a4-highgpu-8g", "tuner_config_a4.txtpb", id="a4-b200"),
    ],
)
def test_gpudirect_rdma_installs_gib_into_usr_local_gib_without_an_rxdm(instance_type, tuner):
    script = _script(instance_type)
    install = (
        "docker run --rm --volume /usr/local/gib:/var/lib/gib --entrypoint=/scripts/container_entry.sh "
        "us-docker.pkg.dev/gce-ai-infra/gpudirect-gib/nccl-plugin-gib:v1.1.2 install --install-nccl || return 1"
    )
    assert install in script
    assert "receive-datapath-manager" not in script and "NVIDIA container toolkit" not in script
    assert ". /usr/local/gib/scripts/set_nccl_env.sh;" in script
    assert f"export NCCL_TUNER_CONFIG_PATH=/usr/local/gib/configs/{tuner}" in script
    assert "export LD_LIBRARY_PATH=/usr/local/gib/lib64" in script and "export NCCL_IB_TC=52" in script


def test_a3_high_runs_the_tcpx_rxdm_with_its_socket_and_variables():
    script = _script("a3-highgpu-8g")
    assert "--volume=/run/tcpx:/run/tcpx" in script and "--uds_path /run/tcpx" in script
    assert "--gpu_nic_preset a3vm --gpu_shmem_type fd" in script
    assert "export NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX=/run/tcpx" in script
    assert "dmabuf_import_helper" not in script and "import-helper" not in script


def test_a3_mega_prepares_the_host_and_reads_the_plugin_profile():
    script = _script("a3-megagpu-8g")
    assert "{ modprobe import-helper; } || return 1" in script
    assert "--device=/dev/dmabuf_import_helper" in script and "--num_hops=2 --num_nics=8 ||" in script
    assert "1ae0:0084" in script  # one aperture bind mount per GPU NIC function
    assert ". /var/lib/tcpxo/lib64/nccl-env-profile.sh" in script
    assert "export NCCL_FASTRAK_IFNAME=enp6s0,enp7s0,enp13s0,enp14s0,enp134s0,enp135s0,enp141s0,enp142s0" in script


def test_the_head_node_gets_no_plugin():
    config = make_config(job={"command": "/fsx/train.py"})
    head = startup_script("train", config, "head", "filestore", "10.99.0.2", "trainstack", "127.0.0.1")
    assert "receive-datapath-manager" not in head


@pytest.mark.parametrize("instance_type", ["a3-highgpu-8g", "a3-megagpu-8g", "a3-ultragpu-8g", "a4-highgpu-8g"])
def test_the_whole_startup_script_is_valid_bash(instance_type):
    assert BASH is not None
    subprocess.run([BASH, "-n"], input=_script(instance_type), text=True, check=True)


def _stub(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def _run(tmp_path: Path, gd, runtimes: str, profile: str = "") -> tuple[subprocess.CompletedProcess, Path]:
    """Run `gd`'s snippet with stub docker/modprobe/lspci/mount and a temporary env file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    _stub(bin_dir, "docker", f'echo "docker $*" >> {calls}; [ "$1" = info ] && echo "Runtimes: {runtimes}"; exit 0')
    for name in ("modprobe", "mount", "mountpoint", "chmod", "mkdir"):
        _stub(bin_dir, name, f'echo "{name} $*" >> {calls}; exit 0')
    _stub(bin_dir, "lspci", "echo '0000:06:00.0 Ethernet controller [0200]: Google, Inc. Device [1ae0:0084]'")
    env_file = tmp_path / "nccl.sh"
    env_file.write_text("export NCCL_SOCKET_IFNAME='^lo,docker'\n")
    text = "\n".join(gpudirect_lines(gd)).replace(ENV_FILE, str(env_file))
    if gd.env_profile:
        (tmp_path / "profile.sh").write_text(profile)
        text = text.replace(gd.env_profile, str(tmp_path / "profile.sh"))
    run = subprocess.run(
        [BASH, "-c", text],
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    return run, env_file


def test_the_tcpx_variables_are_written_once_the_rxdm_runs(tmp_path):
    run, env_file = _run(tmp_path, TCPX, "io.containerd.runc.v2 nvidia runc")
    assert run.returncode == 0, run.stderr
    env = read_env_file(str(env_file))
    assert env["NCCL_NET"] == "GPUDirectTCPX_v7" and env["NCCL_SOCKET_IFNAME"] == "enp0s12"
    assert env["NCCL_GPUDIRECTTCPX_TX_BINDINGS"].startswith("enp6s0:8-21,112-125;")
    calls = (tmp_path / "calls").read_text()
    assert "docker rm -f receive-datapath-manager" in calls
    assert "docker run --detach --restart unless-stopped --name receive-datapath-manager" in calls


def test_without_the_nvidia_runtime_nccl_stays_on_sockets(tmp_path):
    run, env_file = _run(tmp_path, TCPX, "io.containerd.runc.v2 runc")
    assert run.returncode == 0  # the node boots on; its job runs over sockets
    assert "needs the NVIDIA container toolkit" in run.stderr and "setup failed" in run.stderr
    assert read_env_file(str(env_file)) == {"NCCL_SOCKET_IFNAME": "^lo,docker"}
    assert "install --install-nccl" not in (tmp_path / "calls").read_text()


def test_tcpxo_adds_the_profile_variables_then_its_own(tmp_path):
    profile = 'export NCCL_PROTO=Simple,LL128\nexport NCCL_TUNER_CONFIG_PATH="$NCCL_LIB_DIR/a3plus_tuner.textproto"\n'
    run, env_file = _run(tmp_path, TCPXO, "nvidia runc", profile)
    assert run.returncode == 0, run.stderr
    env = read_env_file(str(env_file))
    assert env["NCCL_PROTO"] == "Simple,LL128"
    assert env["NCCL_TUNER_CONFIG_PATH"] == "/var/lib/tcpxo/lib64/a3plus_tuner.textproto"
    assert env["NCCL_NET"] == "FasTrak" and env["NCCL_FASTRAK_CTRL_DEV"] == "enp0s12"
    assert "modprobe import-helper" in (tmp_path / "calls").read_text()


def test_gib_adds_the_profile_variables_then_its_own_without_the_nvidia_runtime(tmp_path):
    profile = "export NCCL_NET=gIB\nexport NCCL_IB_GID_INDEX=3\nexport NCCL_TUNER_CONFIG_PATH=/elsewhere\n"
    run, env_file = _run(tmp_path, GIB_A4, "io.containerd.runc.v2 runc", profile)  # no RxDM: no --gpus
    assert run.returncode == 0, run.stderr
    env = read_env_file(str(env_file))
    assert env["NCCL_IB_GID_INDEX"] == "3"  # from the plugin's profile
    assert env["NCCL_TUNER_CONFIG_PATH"] == "/usr/local/gib/configs/tuner_config_a4.txtpb"  # ours win
    assert env["NCCL_NET"] == "gIB" and env["NCCL_SOCKET_IFNAME"] == "^lo,docker"
    calls = (tmp_path / "calls").read_text()
    assert "--entrypoint=/scripts/container_entry.sh" in calls and "receive-datapath-manager" not in calls
