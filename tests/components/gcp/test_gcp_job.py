"""The GCP node bootstrap under mocks: `/fsx` mount, `/scratch`, and with a `job:` the node agent
on every worker and the rendezvous on an on-demand head node."""

from __future__ import annotations

import json
import re

import pytest

from clouds.gcp.bootstrap import file_system_mount
from tests.components.gcp.gcp_harness import build, make_config

JOB = {"command": "/fsx/code/train.py --epochs 3", "env": {"WANDB_MODE": "offline"}}
LUSTRE_FS = {"capacity_gib": 40_000, "throughput_mbps_per_tib": 250}


def _script(plan, name: str) -> str:
    return plan.named(name)["inputs"]["metadata"]["startup-script"]


def _job_file(script: str) -> dict:
    return json.loads(re.search(r"<<'TRAINSTACK_JOB'\n(.*)\nTRAINSTACK_JOB", script).group(1))


def test_job_runs_on_every_node_with_the_rendezvous_on_an_on_demand_head() -> None:
    plan = build(make_config(job=JOB))
    head = plan.named("train-head")["inputs"]
    assert head["machineType"] == "n2-standard-2" and head["zone"] == "us-central1-a"
    assert head["scheduling"]["provisioningModel"] == "STANDARD"  # never spot
    assert "guestAccelerators" not in head
    address = plan.named("train-head-ip")["inputs"]
    assert (address["addressType"], address["subnetwork"], address["region"]) == (
        "INTERNAL",
        "train-subnet-id",
        "us-central1",
    )
    assert head["networkInterfaces"] == [
        {"network": "train-net-id", "subnetwork": "train-subnet-id", "networkIp": "10.0.0.250"}
    ]
    worker = _script(plan, "train-template")
    assert worker.startswith("#!/bin/bash\n")
    assert "systemctl enable --now trainstack-job.service" in worker
    assert "systemctl enable --now trainstack-scratch.service" in worker
    job = _job_file(worker)
    assert job["rdzv_host"] == "10.0.0.250"  # the reserved head address, not the VM's (mocks)
    assert job["rdzv_file"] == "/fsx/trainstack/rendezvous/train"
    assert job["cloud"] == "gcp"  # GCP metadata watcher: preempted, maintenance-event
    assert job["command"] == ["/fsx/code/train.py", "--epochs", "3"]
    assert (job["nproc_per_node"], job["min_nodes"], job["max_nodes"]) == (8, 2, 2)
    assert job["log_dir"] == "/fsx/trainstack/logs/train" and job["env_file"] == "/etc/profile.d/trainstack-nccl.sh"
    head_script = _script(plan, "train-head")
    assert "systemctl enable --now trainstack-rendezvous.service" in head_script
    assert "-m nodeagent store 29400 /fsx/trainstack/rendezvous/train" in head_script  # announces itself
    assert "trainstack-job.service" not in head_script.replace("Before=trainstack-job.service", "")
    assert "trainstack-scratch" not in head_script
    # the head publishes the job's progress as a guest attribute (read by `trainstack status`)
    assert head["metadata"]["enable-guest-attributes"] == "TRUE"
    assert "enable-guest-attributes" not in plan.named("train-template")["inputs"]["metadata"]


@pytest.mark.parametrize(
    ("file_system", "fstab"),
    [
        pytest.param(None, "10.99.0.2:/trainstack /fsx nfs ", id="filestore"),
        pytest.param(LUSTRE_FS, "10.252.0.5@tcp:/trainfs /fsx lustre ", id="managed-lustre"),
    ],
)
def test_every_node_mounts_the_file_system_at_fsx(file_system, fstab) -> None:
    changes = {"file_system": file_system} if file_system else {}
    plan = build(make_config(job=JOB, **changes))
    for name in ("train-template", "train-head"):
        script = _script(plan, name)
        assert fstab in script, name
        assert "mountpoint -q /fsx || mount /fsx" in script
    lustre = "lustre-client-modules-$(uname -r)" in _script(plan, "train-template")
    assert lustre is (file_system is not None)


def test_without_a_job_no_head_node_and_no_agent_but_the_mount_and_scratch() -> None:
    plan = build(make_config())
    assert not [r for r in plan.records if r["name"] == "train-head"]
    script = _script(plan, "train-template")
    assert "nodeagent run" not in script and "TRAINSTACK_JOB" not in script
    assert "10.99.0.2:/trainstack /fsx nfs" in script
    assert "systemctl enable --now trainstack-scratch.service" in script
    assert "export NCCL_SOCKET_IFNAME='^lo,docker'" in script


def test_no_file_system_no_mount() -> None:
    assert file_system_mount(None, None, None) == []
    assert file_system_mount("filestore", None, "trainstack") == []


def test_a_mount_source_a_shell_would_misread_is_refused() -> None:
    with pytest.raises(ValueError, match="file_system_dns: .* is not a mount source"):
        file_system_mount("lustre", "10.0.0.5@tcp:/fs; rm -rf /", None)


def test_a_replaced_head_node_keeps_the_workers_rendezvous_address() -> None:
    """The workers find the head at its reserved address, not the VM's: a replaced head VM
    (deleted first, so the new one can take the address) changes neither the address nor the
    workers' template; the head announces itself on /fsx too (`nodeagent.job.rendezvous_host`)."""
    plan = build(make_config(job=JOB))
    head = plan.named("train-head")
    assert head.get("delete_before_replace") is True
    assert plan.named("train-head-ip").get("delete_before_replace") is None  # the address stays
    assert plan.named("train-template").get("delete_before_replace") is None
    worker_job = _job_file(_script(plan, "train-template"))
    assert worker_job["rdzv_host"] == head["inputs"]["networkInterfaces"][0]["networkIp"]
