"""TPU slices requested as queued resources: no TPU VM in the stack, one `gcloud` command per
slice carrying the cluster's own service account, labels, network and purchase."""

from __future__ import annotations

import shlex

import pytest

from clouds.gcp.queued import queued_resource_command
from tests.components.gcp.gcp_harness import TPU_EXAMPLE, build, make_config
from tests.components.test_data_safety import write_stack
from trainstack.plan.runner import run_plan

TPU = "gcp:tpu/v2Vm:V2Vm"


def _flags(command: str) -> dict[str, str]:
    words = shlex.split(command)
    return {w.split("=", 1)[0]: (w.split("=", 1)[1] if "=" in w else "") for w in words if w.startswith("--")}


@pytest.mark.parametrize(
    ("changes", "market"),
    [
        pytest.param({"purchase": "spot"}, "--spot", id="spot"),
        pytest.param({"purchase": "on-demand", "reservation": {"id": "v5p-resv"}}, "--reserved", id="reserved"),
        pytest.param({"purchase": "on-demand"}, None, id="on-demand"),
    ],
)
def test_each_slice_gets_a_command_with_the_clusters_identity(changes, market):
    config = make_config(TPU_EXAMPLE, queued_resource=True, nodes=2, tags={"team": "ml"}, **changes)
    plan = build(config)
    plan_commands = plan.registered_outputs["queued_resource_commands"]
    assert plan.of_type(TPU) == []  # the slices are not TPU VMs in the stack
    assert plan.outputs["node_ids"] == ["train-tpu-0", "train-tpu-1"]
    assert plan.outputs["node_private_ips"] == []
    assert [shlex.split(c)[5] for c in plan_commands] == ["train-tpu-0", "train-tpu-1"]
    flags = _flags(plan_commands[0])
    account = next(r for r in plan.records if r["type"] == "gcp:serviceaccount/account:Account")
    assert flags["--service-account"] == f"{account['inputs']['accountId']}@mock-project.iam.gserviceaccount.com"
    assert flags["--node-id"] == "train-tpu-0"
    assert (flags["--zone"], flags["--project"]) == ("us-east5-a", "mock-project")
    assert (flags["--accelerator-type"], flags["--runtime-version"]) == ("v5p-8", "v2-alpha-tpuv5")
    assert (flags["--network"], flags["--subnetwork"]) == ("train-net", "train-subnet")
    assert "--internal-ips" in flags and flags["--metadata"] == "enable-oslogin=TRUE"
    assert "team=ml" in flags["--labels"].split(",")
    assert {"--spot", "--reserved"} & set(flags) == ({market} if market else set())


def test_the_plan_exports_the_commands_in_the_stack_project(tmp_path):
    write_stack(
        tmp_path,
        "tpu-queued",
        base="training-tpu-v5p",
        config={"gcp:project": "team-tpu"},
        queued_resource=True,
    )
    plan = run_plan("tpu-queued", tmp_path, priced=False)
    [command] = plan.outputs["queued_resource_commands"]
    flags = _flags(command)
    assert flags["--project"] == "team-tpu" and flags["--service-account"].endswith("@team-tpu.iam.gserviceaccount.com")
    assert flags["--accelerator-type"] == "v5p-32" and "--spot" in flags
    assert not [r for r in plan.resources if r["type"] == TPU]


def test_queued_resource_is_for_tpu_slices_only():
    with pytest.raises(ValueError, match=r"queued_resource: only TPU slices \(tpu-\.\.\.\) .* a3-highgpu-8g"):
        make_config(queued_resource=True)


def test_a_reserved_spot_request_is_refused():
    with pytest.raises(ValueError, match="never spot"):
        queued_resource_command(
            "q", "z", "p", "v5p-8", "rv", "n", "s", "sa@p", ("scope",), {}, {}, purchase="spot", reserved=True
        )
