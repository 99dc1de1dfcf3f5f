"""`GcpGpuCluster` under Pulumi mocks: resources, their inputs, outputs and protection."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.components.gcp.gcp_harness import TPU_EXAMPLE, build, make_config
from trainstack.plan.mocks import RecordingMonitor, TrainstackMocks

INSTANCE = "gcp:compute/instance:Instance"
TEMPLATE = "gcp:compute/instanceTemplate:InstanceTemplate"
GROUP = "gcp:compute/instanceGroupManager:InstanceGroupManager"
FIREWALL = "gcp:compute/firewall:Firewall"
POLICY = "gcp:compute/resourcePolicy:ResourcePolicy"
FILESTORE = "gcp:filestore/instance:Instance"
LUSTRE = "gcp:lustre/instance:Instance"
TPU = "gcp:tpu/v2Vm:V2Vm"
LABELED = {INSTANCE, TEMPLATE, FILESTORE, LUSTRE, TPU, "gcp:compute/globalAddress:GlobalAddress"}
LABELS = {"trainstack-cluster": "train", "trainstack-provider": "gcp"}
A2 = {"instance_type": "a2-highgpu-8g", "accelerator": "A100", "interconnect": "none"}
MEGA = {"instance_type": "a3-megagpu-8g", "accelerator": "H100-MEGA"}
N1_T4 = {"instance_type": "n1-standard-16", "accelerator": "T4", "accelerator_count": 4, "interconnect": "none"}
SMALL_FS = {"capacity_gib": 4800, "throughput_mbps_per_tib": 250, "deployment_type": "ZONAL"}
LUSTRE_FS = {"capacity_gib": 40_000, "throughput_mbps_per_tib": 250}


def test_outputs_registered_and_resolved(example: ClusterConfig) -> None:
    def check(outputs: dict[str, Any]) -> None:
        assert outputs["node_ids"] == ["train-nodes"]  # the group: its VMs come and go
        assert outputs["node_private_ips"] == []
        assert outputs["placement_group"].endswith("/train-placement")
        assert outputs["file_system_dns"] == "10.99.0.2"
        assert outputs["file_system_mount_name"] == "trainstack"
        assert outputs["usd_per_hour"] == 40.4  # the stack's recorded price, passed through
        assert outputs["file_system_mount_command"] == (
            "sudo mkdir -p /fsx && sudo mount -t nfs -o hard 10.99.0.2:/trainstack /fsx"
        )

    plan = build(example, check=check)
    # the node template's startup script mounts that Filestore share (NFS) at /fsx on every node
    (template,) = plan.of_type(TEMPLATE)
    script = template["inputs"]["metadata"]["startup-script"]
    dns, share = plan.outputs["file_system_dns"], plan.outputs["file_system_mount_name"]
    assert f"echo '{dns}:/{share} /fsx nfs " in script and "mount /fsx" in script
    assert set(plan.outputs) == set(OUTPUT_NAMES)
    assert plan.registered_outputs == plan.outputs
    assert plan.named("train")["type"] == "trainstack:gcp:GpuCluster"
    assert all(r["parent"] == "train" for r in plan.records if r["name"] != "train")


def test_a3_high_template_has_5_gvnics_and_spot_deleted_on_preemption(example: ClusterConfig) -> None:
    plan = build(example)
    assert plan.of_type(INSTANCE) == []  # no per-node instances: the group creates them
    nodes = plan.of_type(TEMPLATE)
    assert [n["name"] for n in nodes] == ["train-template"]
    for node in nodes:
        inputs = node["inputs"]
        nics = inputs["networkInterfaces"]
        assert len(nics) == 5
        assert {nic["nicType"] for nic in nics} == {"GVNIC"}
        gpu_nets = [f"train-gpu-{k}-id" for k in range(1, 5)]
        assert [nic["network"] for nic in nics] == ["train-net-id", *gpu_nets]
        assert all("accessConfigs" not in nic for nic in nics)  # no external IP
        assert inputs["scheduling"] == {
            "provisioningModel": "SPOT",
            "preemptible": True,
            "automaticRestart": False,
            "instanceTerminationAction": "DELETE",  # deleted, so the group recreates it
            "onHostMaintenance": "TERMINATE",
        }
        assert inputs["namePrefix"] == "train-"  # a changed template is a new one beside the old
        assert inputs["disks"] == [
            {
                "boot": True,
                "autoDelete": True,
                # one image pinned by name, not the family (a later image would differ per node)
                "sourceImage": "projects/deeplearning-platform-release/global/images/"
                "common-cu128-ubuntu-2204-nvidia-570-v20260320",
                "diskSizeGb": 200,
                "diskType": "pd-balanced",
                "labels": LABELS,
            }
        ]
        assert "guestAccelerators" not in inputs
        assert inputs["metadata"]["enable-oslogin"] == "TRUE"
        assert inputs["resourcePolicies"].endswith("/train-placement")
        assert inputs["shieldedInstanceConfig"]["enableVtpm"] is True
        assert "cloud-platform" not in " ".join(inputs["serviceAccount"]["scopes"])


def test_on_demand_is_standard_and_terminates_on_maintenance() -> None:
    plan = build(make_config(purchase="on-demand"))
    scheduling = plan.named("train-template")["inputs"]["scheduling"]
    assert scheduling["provisioningModel"] == "STANDARD"
    assert scheduling["onHostMaintenance"] == "TERMINATE"
    assert scheduling["preemptible"] is False
    assert "instanceTerminationAction" not in scheduling


@pytest.mark.parametrize(
    ("changes", "nics", "policy"),
    [
        pytest.param(MEGA, 9, {"collocation": "COLLOCATED", "maxDistance": 2}, id="a3-mega"),
        pytest.param(A2, 1, {"collocation": "COLLOCATED"}, id="a2-no-max-distance"),
    ],
)
def test_nics_and_placement_policy(changes: dict[str, Any], nics: int, policy: dict[str, Any]) -> None:
    plan = build(make_config(**changes))
    assert len(plan.named("train-template")["inputs"]["networkInterfaces"]) == nics
    [placement] = plan.of_type(POLICY)
    assert placement["inputs"]["groupPlacementPolicy"] == policy


def test_n1_gets_guest_accelerators_and_no_placement_policy() -> None:
    plan = build(make_config(**N1_T4))
    node = plan.named("train-template")["inputs"]
    assert node["guestAccelerators"] == [{"type": "nvidia-tesla-t4", "count": 4}]
    assert "resourcePolicies" not in node
    assert plan.of_type(POLICY) == []
    assert plan.outputs["placement_group"] is None


@pytest.mark.parametrize(
    ("ssh_cidrs", "ssh_rules"),
    [
        pytest.param((), [], id="default-no-ssh"),
        pytest.param(("203.0.113.0/24",), [["203.0.113.0/24"]], id="ssh"),
    ],
)
def test_firewalls_admit_only_internal_and_configured_ssh(ssh_cidrs: tuple, ssh_rules: list) -> None:
    plan = build(make_config(ssh_cidrs=ssh_cidrs))
    firewalls = plan.of_type(FIREWALL)
    assert firewalls
    for rule in firewalls:
        assert "0.0.0.0/0" not in rule["inputs"]["sourceRanges"]
        assert rule["inputs"]["direction"] == "INGRESS"
    with_22 = [
        r["inputs"]["sourceRanges"]
        for r in firewalls
        if any("22" in (a.get("ports") or []) for a in r["inputs"]["allows"])
    ]
    # sshd answers Google's health-check probes (auto-healing) and, if asked, ssh_cidrs
    assert sorted(with_22) == sorted([*ssh_rules, ["35.191.0.0/16", "130.211.0.0/22"]])


def test_tpu_slice_gets_api_type_runtime_and_spot() -> None:
    plan = build(make_config(TPU_EXAMPLE))
    [vm] = plan.of_type(TPU)
    assert vm["name"] == "train-tpu-0"
    assert vm["inputs"]["acceleratorType"] == "v5p-8"
    assert vm["inputs"]["runtimeVersion"] == "v2-alpha-tpuv5"
    assert vm["inputs"]["schedulingConfig"] == {"spot": True}
    assert vm["inputs"]["zone"] == "us-east5-a"
    assert vm["inputs"]["networkConfig"] == {
        "network": "train-net-id",
        "subnetwork": "train-subnet-id",
        "enableExternalIps": False,
    }
    assert plan.of_type(INSTANCE) == [] and plan.of_type(POLICY) == []
    assert plan.outputs["placement_group"] == "tpu-ici"
    assert plan.outputs["node_private_ips"] == ["10.0.0.10"]


def test_a_tpu_slice_launches_into_its_reservation() -> None:
    plan = build(make_config(TPU_EXAMPLE, purchase="on-demand", capacity_reservation_id="v5p-resv"))
    [vm] = plan.of_type(TPU)
    assert vm["inputs"]["schedulingConfig"] == {"reserved": True}


def test_filestore_is_protected_and_sized(example: ClusterConfig) -> None:
    plan = build(example)
    [share] = plan.of_type(FILESTORE)
    assert share["protect"] is True
    assert share["inputs"]["tier"] == "ZONAL"
    assert share["inputs"]["fileShares"]["capacityGb"] == 4864
    assert share["inputs"]["location"] == "us-central1-a"
    assert share["inputs"]["networks"] == [
        {"network": "train-net", "modes": ["MODE_IPV4"], "connectMode": "PRIVATE_SERVICE_ACCESS"}
    ]
    peering_range = plan.named("train-fs-range")["inputs"]
    assert (peering_range["address"], peering_range["prefixLength"]) == ("10.252.0.0", 20)
    assert [r["name"] for r in plan.records if r["protect"]] == ["train-fs"]


def test_lustre_is_chosen_protected_and_peered() -> None:
    plan = build(make_config(file_system=LUSTRE_FS))
    [lustre] = plan.of_type(LUSTRE)
    assert lustre["protect"] is True
    assert lustre["inputs"]["capacityGib"] == "72000"
    assert lustre["inputs"]["perUnitStorageThroughput"] == "250"
    peering = plan.named("train-fs-peering")["inputs"]
    assert peering["service"] == "servicenetworking.googleapis.com"
    assert plan.named("train-fw-lustre")["inputs"]["sourceRanges"] == ["10.252.0.0/20"]
    assert plan.outputs["file_system_dns"] == "10.252.0.5@tcp:/trainfs"
    assert plan.outputs["file_system_mount_name"] == "trainfs"


STATEFUL_VARIANTS = [
    pytest.param({"nodes": 8}, id="more-nodes"),
    pytest.param({"purchase": "on-demand"}, id="on-demand"),
    pytest.param(MEGA, id="a3-mega"),
    pytest.param({**A2, "nodes": 1, "purchase": "on-demand"}, id="a2-one-on-demand"),
]


@pytest.mark.parametrize("changes", STATEFUL_VARIANTS)
@pytest.mark.parametrize(
    ("file_system", "kept"),
    [
        pytest.param(SMALL_FS, ["train-fs", "train-fs-range", "train-fs-peering"], id="filestore"),
        pytest.param(LUSTRE_FS, ["train-lustre", "train-fs-range", "train-fs-peering"], id="lustre"),
    ],
)
def test_file_system_unchanged_when_nodes_type_or_purchase_change(
    changes: dict[str, Any], file_system: dict[str, Any], kept: list[str]
) -> None:
    before = build(make_config(file_system=file_system))
    after = build(make_config(file_system=file_system, **changes))
    for name in [*kept, "train-net", "train-subnet"]:
        old, new = before.named(name), after.named(name)
        assert (new["type"], new["parent"], new["protect"], new["inputs"]) == (
            old["type"],
            old["parent"],
            old["protect"],
            old["inputs"],
        ), name


@pytest.mark.parametrize("base", [pytest.param(None, id="a3-filestore"), pytest.param(TPU_EXAMPLE, id="tpu")])
def test_labels_on_every_labeled_resource(base: dict[str, Any] | None) -> None:
    plan = build(make_config(base, tags={"team": "ml-research"}))
    expected = {**LABELS, "team": "ml-research"}
    labeled = [r for r in plan.records if r["type"] in LABELED]
    assert labeled
    for record in labeled:
        assert record["inputs"]["labels"] == expected, record["name"]
    for node in plan.of_type(TEMPLATE):
        assert node["inputs"]["disks"][0]["labels"] == expected


def test_invalid_config_registers_nothing() -> None:
    from components.gcp.cluster import GcpGpuCluster

    config = make_config(instance_type="a2-highgpu-8g", accelerator="A100")
    monitor = RecordingMonitor(TrainstackMocks())
    pulumi.runtime.set_mocks(monitor.mocks, preview=False, monitor=monitor)

    @pulumi.runtime.test
    def program() -> None:
        GcpGpuCluster("train", config)

    with pytest.raises(ValueError, match="interconnect: rdma needs GPUDirect"):
        program()
    assert monitor.records() == []
