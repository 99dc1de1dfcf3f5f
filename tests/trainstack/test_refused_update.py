"""An update the cloud refuses (trainstack.review.replacements.refused_update): a Filestore Zonal
instance scales within the capacity range it was created in and never into the other one
(Google's Filestore "Zonal tier" page, Limitations), so the review must not call such a change a
plain update."""

from __future__ import annotations

import pytest

from trainstack.plan.runner import PlanResult
from trainstack.review.diff import diff_plans
from trainstack.review.markdown import review_markdown
from trainstack.review.replacements import refused_update
from trainstack.review.report import review_json

FILESTORE = "gcp:filestore/instance:Instance"


def _fs(gib: int) -> dict:
    return {"tier": "ZONAL", "fileShares": {"name": "share", "capacityGb": gib}}


@pytest.mark.parametrize(
    ("kind", "before", "after", "refused"),
    [
        pytest.param(FILESTORE, 4864, 12800, True, id="lower-to-higher-range"),
        pytest.param(FILESTORE, 12800, 9984, True, id="higher-to-lower-range"),
        pytest.param(FILESTORE, 4864, 9984, False, id="grow-within-the-lower-range"),
        pytest.param(FILESTORE, 4864, 2560, False, id="shrink-within-the-lower-range"),
        pytest.param(FILESTORE, 10240, 102400, False, id="grow-within-the-higher-range"),
        pytest.param(FILESTORE, 4864, 4864, False, id="unchanged"),
        pytest.param("gcp:lustre/instance:Instance", 4864, 12800, False, id="another-type"),
    ],
)
def test_a_value_moved_between_fixed_ranges_is_refused(kind: str, before: int, after: int, refused: bool) -> None:
    why = refused_update(kind, _fs(before), _fs(after))
    assert bool(why) is refused
    if refused:
        assert why.startswith(f"fileShares.capacityGb {before:,} -> {after:,} leaves the range the cloud fixed")
        assert "(1,024-9,984, 10,240-102,400)" in why and "`pulumi up` fails here" in why


def _record(gib: int) -> list[dict]:
    return [
        {"type": "trainstack:gcp:GpuCluster", "name": "c", "parent": None, "protect": False, "inputs": {}},
        {"type": FILESTORE, "name": "c-fs", "parent": "c", "protect": True, "inputs": _fs(gib)},
    ]


def test_the_review_warns_that_the_cloud_refuses_the_update() -> None:
    changes = diff_plans(_record(4864), _record(12800), "s")
    (fs,) = [c for c in changes if c.name == "c-fs"]
    assert fs.action == "update" and fs.refused
    plan = PlanResult([], 26.0, 1872.0, {}, hours=72.0)
    review = review_json("s", "HEAD", changes, plan, plan, [], None)
    assert review["changes"][0]["refused"] == fs.refused
    text = review_markdown(review)
    assert "> ⛔ **The cloud refuses** the change to `c-fs`, so `pulumi up` fails there (see its row)." in text
    assert "<br>⛔ refused: fileShares.capacityGb 4,864 -> 12,800 leaves the range" in text
    within = diff_plans(_record(4864), _record(6400), "s")
    assert not any(c.refused for c in within)
    assert "refuses" not in review_markdown(review_json("s", "HEAD", within, plan, plan, [], None))


FSX = "aws:fsx/lustreFileSystem:LustreFileSystem"


@pytest.mark.parametrize(
    ("efa", "action", "refused"),
    [
        pytest.param(False, "update", False, id="updated-in-place"),
        pytest.param(True, "update", True, id="efa-enabled-refuses"),
    ],
)
def test_an_fsx_throughput_tier_changes_in_place_unless_efa_is_enabled(efa: bool, action: str, refused: bool) -> None:
    """terraform-provider-aws PR #34932 (bridged by pulumi-aws 7.x): per_unit_storage_throughput
    updates in place, so no data-loss warning; an EFA-enabled file system refuses the change."""

    def fsx(mbps: int) -> list[dict]:
        inputs = {"deploymentType": "PERSISTENT_2", "storageCapacity": 4800, "perUnitStorageThroughput": mbps}
        return [
            {"type": FSX, "name": "c-fsx", "parent": None, "protect": True, "inputs": {**inputs, "efaEnabled": efa}}
        ]

    (change,) = diff_plans(fsx(250), fsx(500), "s")
    assert (change.action, change.replace_keys) == (action, ())
    assert bool(change.refused) is refused
    if refused:
        assert change.refused.startswith("perUnitStorageThroughput 250 -> 500 cannot change while efaEnabled is set")
    plan = PlanResult([], 13.86, 998.54, {}, hours=72.0)
    assert review_json("s", "HEAD", [change], plan, plan, [], None)["data_loss"] == []


@pytest.mark.parametrize(
    ("kind", "path", "before", "after", "refused"),
    [
        pytest.param("huaweicloud:Sfs/turbo:Turbo", "size", 4800, 2400, True, id="sfs-turbo-shrink"),
        pytest.param("huaweicloud:Sfs/turbo:Turbo", "size", 4800, 6000, False, id="sfs-turbo-grows"),
        pytest.param("alicloud:nas/fileSystem:FileSystem", "capacity", 4800, 2400, True, id="cpfs-shrink"),
        pytest.param("alicloud:nas/fileSystem:FileSystem", "capacity", 4800, 9600, False, id="cpfs-grows"),
    ],
)
def test_a_file_system_the_cloud_only_grows_refuses_a_shrink(kind, path, before, after, refused) -> None:
    """SFS Turbo "cannot be reduced" (Huawei's SFS Turbo guide); CPFS's UpgradeFileSystem takes only
    a larger capacity (Alibaba's NAS API reference): a shrink fails, it replaces nothing."""

    def fs(size: int) -> list[dict]:
        return [{"type": kind, "name": "c-fs", "parent": None, "protect": True, "inputs": {path: size}}]

    (change,) = diff_plans(fs(before), fs(after), "s")
    assert change.action == "update"
    assert bool(change.refused) is refused
    if refused:
        assert change.refused == (
            f"{path} {before:,} -> {after:,}: the cloud only grows it and refuses a smaller value, so `pulumi up` "
            "fails here; only a new resource is smaller"
        )


def test_a_file_system_replaced_for_another_reason_is_not_also_refused() -> None:
    """A new subnet replaces the Filestore (its network): the new one takes any size."""
    subnet = "gcp:compute/subnetwork:Subnetwork"

    def plan(gib: int, network: str) -> list[dict]:
        records = _record(gib)
        records[1]["inputs"] = {**records[1]["inputs"], "networks": [{"network": "c-subnet-id"}]}
        net = {"type": subnet, "name": "c-subnet", "parent": "c", "protect": False, "inputs": {"network": network}}
        return [*records, net]

    changes = {c.name: c for c in diff_plans(plan(4864, "net-a"), plan(12800, "net-b"), "s")}
    assert changes["c-subnet"].action == "replace"
    assert changes["c-fs"].action == "replace" and changes["c-fs"].refused == ""


MIG = "gcp:compute/instanceGroupManager:InstanceGroupManager"
TEMPLATE = "gcp:compute/instanceTemplate:InstanceTemplate"
SUBNET = "gcp:compute/subnetwork:Subnetwork"


def _gcp_plan(machine: str, gpu_nics: bool) -> list[dict]:
    """A GCP cluster whose template names its subnets; without GPU NICs the gpu subnet goes."""
    nics = [{"subnetwork": "c-subnet-id"}, *([{"subnetwork": "c-gpu-1-sub-0-id"}] if gpu_nics else [])]
    records = [
        {"type": "trainstack:gcp:GpuCluster", "name": "c", "parent": None, "protect": False, "inputs": {}},
        {"type": SUBNET, "name": "c-subnet", "parent": "c", "protect": False, "inputs": {"network": "n"}},
        {
            "type": TEMPLATE,
            "name": "c-template",
            "parent": "c",
            "protect": False,
            "inputs": {"machineType": machine, "networkInterfaces": nics},
        },
        {
            "type": MIG,
            "name": "c-nodes",
            "parent": "c",
            "protect": False,
            "inputs": {"versions": {"instanceTemplate": f"{machine}-template"}, "targetSize": 2},
        },
    ]
    if gpu_nics:
        records.append({"type": SUBNET, "name": "c-gpu-1-sub-0", "parent": "c", "protect": False, "inputs": {}})
    return records


def test_a_subnet_the_kept_running_vms_still_use_is_not_deleted() -> None:
    """a3-highgpu-8g -> 4g: the template is replaced (running VMs kept, OPPORTUNISTIC), and the
    GPU subnets the running 8g VMs sit in are deleted: GCP refuses (resourceInUseByAnotherResource)."""
    from trainstack.review.in_use import refuse_in_use_deletes

    before, after = _gcp_plan("a3-highgpu-8g", True), _gcp_plan("a3-highgpu-4g", False)
    changes = {c.name: c for c in refuse_in_use_deletes(before, diff_plans(before, after, "s"))}
    assert changes["c-template"].action == "replace"
    assert changes["c-gpu-1-sub-0"].action == "delete"
    assert changes["c-gpu-1-sub-0"].refused.startswith("the running nodes still use it")
    assert changes["c-subnet"].refused == ""
    dropped = [r for r in before if r["name"] != "c-gpu-1-sub-0"]  # nothing the running VMs use goes
    assert not any(c.refused for c in refuse_in_use_deletes(before, diff_plans(before, dropped, "s")))
