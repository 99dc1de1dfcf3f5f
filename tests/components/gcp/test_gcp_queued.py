"""TPU slices requested as queued resources: no TPU VM in the stack; an on-demand controller VM
whose startup script carries each slice's full TPU v2 request body, with a least-privilege
identity (custom role on queued resources, acting as the node service account only)."""

from __future__ import annotations

import json

import pytest

from clouds.gcp.queued import CONTROLLER_PERMISSIONS, NEVER_GRANTED, queued_resource_body
from tests.components.gcp.gcp_harness import TPU_EXAMPLE, build, make_config
from tests.components.test_data_safety import write_stack
from trainstack.plan.runner import run_plan

TPU = "gcp:tpu/v2Vm:V2Vm"
INSTANCE = "gcp:compute/instance:Instance"


def _config_of(startup_script: str) -> dict:
    return json.loads(startup_script.split("<<'TRAINSTACK_QUEUED'\n", 1)[1].split("\nTRAINSTACK_QUEUED", 1)[0])


@pytest.mark.parametrize(
    ("changes", "tier"),
    [
        pytest.param({"purchase": "spot"}, {"spot": {}}, id="spot"),
        pytest.param(
            {"purchase": "on-demand", "reservation": {"id": "v5p-resv"}},
            {"reservationName": "projects/mock-project/locations/us-east5-a/reservations/v5p-resv"},
            id="reserved",
        ),
        pytest.param({"purchase": "on-demand"}, {}, id="on-demand"),
    ],
)
def test_the_controller_requests_each_slice_with_the_clusters_identity(changes, tier):
    plan = build(make_config(TPU_EXAMPLE, queued_resource=True, nodes=2, tags={"team": "ml"}, **changes))
    assert plan.of_type(TPU) == []  # the slices are not TPU VMs in the stack
    assert plan.outputs["node_ids"] == ["train-tpu-0", "train-tpu-1"]
    assert plan.registered_outputs["queued_resource_controller"] == "train-queued-controller"
    [vm] = plan.of_type(INSTANCE)
    config = _config_of(vm["inputs"]["metadata"]["startup-script"])
    assert config["parent"] == "projects/mock-project/locations/us-east5-a"
    assert config["api"] == "https://tpu.googleapis.com/v2" and config["poll_seconds"] == 30
    assert list(config["resources"]) == ["train-tpu-0", "train-tpu-1"]
    body = config["resources"]["train-tpu-1"]
    [spec] = body["tpu"]["nodeSpec"]
    assert (spec["parent"], spec["nodeId"]) == (config["parent"], "train-tpu-1")
    node = spec["node"]
    assert node["serviceAccount"]["email"] == "train-nodes@mock-project.iam.gserviceaccount.com"
    assert (node["acceleratorType"], node["runtimeVersion"]) == ("v5p-8", "v2-alpha-tpuv5")
    assert node["networkConfig"] == {"network": "train-net", "subnetwork": "train-subnet", "enableExternalIps": False}
    assert node["labels"]["team"] == "ml" and node["metadata"] == {"enable-oslogin": "TRUE"}
    assert {k: body[k] for k in ("spot", "reservationName") if k in body} == tier
    assert node.get("schedulingConfig") == ({"reserved": True} if "reservationName" in tier else None)


def test_the_controller_is_an_on_demand_vm_with_least_privilege():
    plan = build(make_config(TPU_EXAMPLE, queued_resource=True, nodes=2))
    [vm] = plan.of_type(INSTANCE)
    inputs = vm["inputs"]
    assert inputs["machineType"] == "e2-small" and inputs["zone"] == "us-east5-a"
    # a changed config (another slice, new labels) replaces the stateless controller, delete-first
    assert vm["replace_on_changes"] == ["metadata"] and vm["delete_before_replace"] is True
    assert inputs["scheduling"]["provisioningModel"] == "STANDARD" and not inputs["scheduling"]["preemptible"]
    assert "accessConfigs" not in inputs["networkInterfaces"][0]  # no external IP: NAT and Private Google Access
    assert inputs["serviceAccount"]["email"] == "train-queued@mock-project.iam.gserviceaccount.com"
    [role] = plan.of_type("gcp:projects/iAMCustomRole:IAMCustomRole")
    assert role["inputs"]["permissions"] == list(CONTROLLER_PERMISSIONS)
    # project-wide (Cloud TPU has no IAM Conditions resource attributes), so nothing that can
    # stop another team's running TPU: no node delete, no forced delete (`nodeagent.gcp_queued`)
    assert set(role["inputs"]["permissions"]) == {
        "tpu.queuedResources.create",
        "tpu.queuedResources.get",
        "tpu.queuedResources.delete",
        "tpu.nodes.create",
        "tpu.nodes.get",
    }
    assert not set(NEVER_GRANTED) & set(role["inputs"]["permissions"])
    grants = {r["name"]: r["inputs"] for r in plan.of_type("gcp:projects/iAMMember:IAMMember")}
    assert grants["train-queued-tpu"] == {
        "member": "serviceAccount:train-queued@mock-project.iam.gserviceaccount.com",
        "project": "mock-project",
        "role": "train-queued-role",  # the custom role's name, nothing broader
    }
    [act_as] = plan.of_type("gcp:serviceaccount/iAMMember:IAMMember")
    assert act_as["inputs"]["role"] == "roles/iam.serviceAccountUser"
    assert act_as["inputs"]["serviceAccountId"] == "train-nodes"  # the node account only


def test_the_plan_requests_the_slices_in_the_stack_project(tmp_path):
    write_stack(
        tmp_path, "tpu-queued", base="training-tpu-v5p", config={"gcp:project": "team-tpu"}, queued_resource=True
    )
    plan = run_plan("tpu-queued", tmp_path, priced=False)
    assert plan.outputs["queued_resource_controller"] == "tpu-queued-queued-controller"
    assert plan.outputs["node_ids"] == ["tpu-queued-tpu-0"]
    vm = next(r for r in plan.resources if r["type"] == INSTANCE)
    config = _config_of(vm["inputs"]["metadata"]["startup-script"])
    [body] = config["resources"].values()
    node = body["tpu"]["nodeSpec"][0]["node"]
    assert config["parent"] == "projects/team-tpu/locations/us-central1-a"
    assert node["serviceAccount"]["email"].endswith("@team-tpu.iam.gserviceaccount.com")
    assert node["acceleratorType"] == "v5p-32" and body["spot"] == {}
    assert not [r for r in plan.resources if r["type"] == TPU]
    assert "controller VM deletes and re-requests" in plan.healing


def test_slices_in_the_stack_say_they_are_not_replaced(tmp_path):
    write_stack(tmp_path, "tpu-vms", base="training-tpu-v5p", queued_resource=False)
    plan = run_plan("tpu-vms", tmp_path, priced=False)
    assert [r["name"] for r in plan.resources if r["type"] == TPU] != []
    assert plan.healing.startswith("nodes are not replaced automatically on gcp tpu-v5p-32")


def test_queued_resource_is_for_tpu_slices_only():
    with pytest.raises(ValueError, match=r"queued_resource: only TPU slices \(tpu-\.\.\.\) .* a3-highgpu-8g"):
        make_config(queued_resource=True)


def test_a_reserved_spot_request_is_refused():
    with pytest.raises(ValueError, match="never spot"):
        queued_resource_body("q", "p", "z", "v5p-8", "rv", "n", "s", "sa@p", ("scope",), {}, {}, "spot", "resv")
