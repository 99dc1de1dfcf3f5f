"""The Azure node bootstrap under mocks: NCCL / InfiniBand environment, AMLFS at `/fsx`,
`/scratch`, and with a `job:` the node agent on every worker and the rendezvous on a
Regular-priority head VM."""

from __future__ import annotations

import base64
import json
import re

import pytest

from clouds.azure.bootstrap import CUSTOM_DATA_LIMIT_BYTES, nccl_env
from nodeagent import publisher
from tests.components.azure.test_azure_cluster import VMSS

JOB = {"command": "/fsx/code/train.py --epochs 3"}
VM = "azure-native:compute:VirtualMachine"


def _decoded(b64: str) -> str:
    return base64.b64decode(b64).decode()


def _named(records, name):
    return next(r for r in records if r["name"] == name)


def _worker_script(records) -> str:
    [scale_set] = [r for r in records if r["type"] == VMSS]
    return _decoded(scale_set["inputs"]["virtualMachineProfile"]["osProfile"]["customData"])


def test_job_runs_on_every_node_with_the_rendezvous_on_a_regular_head(azure_records, azure_config):
    records = azure_records(azure_config(job=JOB))
    assert _named(records, "c-head").get("delete_before_replace") is True  # frees the NIC first
    assert _named(records, "c-head-nic").get("delete_before_replace") is None  # the address stays
    head = _named(records, "c-head")["inputs"]
    assert head["priority"] == "Regular"  # never spot
    assert head["hardwareProfile"] == {"vmSize": "Standard_D2s_v5"}
    assert head["networkProfile"]["networkInterfaces"][0]["id"].endswith("/networkInterfaces/c-head-nic")
    nic = _named(records, "c-head-nic")["inputs"]
    assert nic["networkSecurityGroup"]["id"].endswith("/networkSecurityGroups/c-nsg")
    assert nic["ipConfigurations"][0]["subnet"]["id"].endswith("/subnets/c-nodes-subnet")
    worker = _worker_script(records)
    assert len(worker.encode()) <= CUSTOM_DATA_LIMIT_BYTES
    job = json.loads(re.search(r"<<'TRAINSTACK_JOB'\n(.*)\nTRAINSTACK_JOB", worker).group(1))
    assert job["rdzv_host"] == "10.0.0.4"  # the head NIC's address (mocks)
    assert job["cloud"] == "azure"  # Scheduled Events watcher (Preempt)
    assert job["command"] == ["/fsx/code/train.py", "--epochs", "3"]
    assert "systemctl enable --now trainstack-job.service" in worker
    assert "systemctl enable --now trainstack-scratch.service" in worker
    head_script = _decoded(head["osProfile"]["customData"])
    assert "systemctl enable --now trainstack-rendezvous.service" in head_script
    assert "-m nodeagent store 29400 /fsx/trainstack/rendezvous/c" in head_script  # announces itself
    assert "trainstack-scratch" not in head_script
    # the job channel: the head's user data, which Azure updates on the running VM
    assert publisher.decode(_decoded(head["userData"]))["command"] == ["/fsx/code/train.py", "--epochs", "3"]
    assert "/fsx/trainstack/jobs/c.json azure" in head_script  # the store unit publishes it


def test_every_node_mounts_amlfs_at_fsx(azure_records, azure_config):
    records = azure_records(azure_config(job=JOB))
    for script in (_worker_script(records), _decoded(_named(records, "c-head")["inputs"]["osProfile"]["customData"])):
        assert "10.0.16.4@tcp:/lustrefs /fsx lustre noatime,flock," in script
        assert "mountpoint -q /fsx || mount /fsx" in script
        assert "amlfs-lustre-client-" in script  # installed only where the image has no client


def test_without_a_job_no_head_but_the_mount_environment_and_scratch(azure_records, azure_config):
    records = azure_records(azure_config())
    assert not [r for r in records if r["type"] == VM or r["name"] == "c-head-nic"]
    worker = _worker_script(records)
    assert "TRAINSTACK_JOB" not in worker and "nodeagent run" not in worker
    assert "export NCCL_IB_PCI_RELAXED_ORDERING=1" in worker
    assert "export NCCL_TOPO_FILE=/opt/microsoft/ndv4-topo.xml" in worker
    assert "/fsx lustre" in worker


def test_no_file_system_no_mount(azure_records, azure_config):
    worker = _worker_script(azure_records(azure_config(file_system=None)))
    assert "/fsx" not in worker and "lustre" not in worker


@pytest.mark.parametrize(
    ("size", "infiniband", "topology"),
    [
        pytest.param("Standard_ND96asr_v4", True, "/opt/microsoft/ndv4-topo.xml", id="nd-a100-v4"),
        pytest.param("Standard_ND96isr_H100_v5", True, "/opt/microsoft/ndv5-topo.xml", id="nd-h100-v5"),
        pytest.param("Standard_NC24ads_A100_v4", False, None, id="no-infiniband"),
        pytest.param("Standard_ND40rs_v2", True, None, id="unknown-topology"),
    ],
)
def test_nccl_env(size, infiniband, topology):
    env = nccl_env(size, infiniband)
    assert env["NCCL_SOCKET_IFNAME"] == "eth0"
    assert env.get("NCCL_TOPO_FILE") == topology
    assert ("NCCL_IB_PCI_RELAXED_ORDERING" in env) is infiniband


def test_managed_tracking_runs_mlflow_on_the_head_with_the_nodes_identity(azure_records, azure_config):
    """`job.tracking: {mlflow: managed}` (`clouds.mlflow_head`): the head's server writes the
    dataset container's artifact prefix with the nodes' identity, which the head VM now carries,
    through a role limited to that prefix; the workers get the URI in their environment file."""
    from clouds.azure.data import STORAGE_BLOB_DATA_CONTRIBUTOR, mlflow_condition

    data = {"source": "https://teamdata.blob.core.windows.net/datasets/imagenet", "resource_group": "team-rg"}
    job = {**JOB, "tracking": {"mlflow": "managed"}}
    records = azure_records(azure_config(job=job, data=data))
    access = _named(records, "c-node-mlflow")["inputs"]
    assert access["principalId"] == "c-node-identity-principal"  # the nodes' identity (the mocks' id)
    assert access["roleDefinitionId"].endswith(f"/roleDefinitions/{STORAGE_BLOB_DATA_CONTRIBUTOR}")
    assert access["scope"].endswith(
        "/resourceGroups/team-rg/providers/Microsoft.Storage/storageAccounts/teamdata"
        "/blobServices/default/containers/datasets"
    )
    assert (access["condition"], access["conditionVersion"]) == (mlflow_condition("trainstack/mlflow/c/"), "2.0")
    assert "'trainstack/mlflow/c/'" in access["condition"] and "/blobs/delete'}" in access["condition"]
    head = _named(records, "c-head")["inputs"]
    workers = next(r for r in records if r["type"] == VMSS)["inputs"]["identity"]
    assert head["identity"] == workers  # the head carries the workers' identity, and only it
    assert head["identity"]["userAssignedIdentities"][0].endswith("/userAssignedIdentities/c-node-identity")
    head_script = _decoded(head["osProfile"]["customData"])
    assert "--artifacts-destination=wasbs://datasets@teamdata.blob.core.windows.net/trainstack/mlflow/c" in head_script
    assert "pip install --no-cache-dir mlflow==3.18.0 azure-storage-blob azure-identity ||" in head_script
    assert "echo 'export MLFLOW_TRACKING_URI=http://10.0.0.4:5000' >> " in _worker_script(records)


def test_without_managed_tracking_the_head_has_no_identity(azure_records, azure_config):
    records = azure_records(azure_config(job=JOB))
    assert "identity" not in _named(records, "c-head")["inputs"]
    assert not [r for r in records if r["name"] == "c-node-mlflow"]
