"""What the review says a node group's change does to running nodes (trainstack.review.node_effects)."""

from __future__ import annotations

import pytest

from tests.cases import cases
from trainstack.review.diff import Change
from trainstack.review.markdown import review_markdown
from trainstack.review.node_effects import EFFECTS, node_effect
from trainstack.review.replacements import NODE_COUNTS
from trainstack.review.report import review_json

ASG = "aws:autoscaling/group:Group"
LT = "aws:ec2/launchTemplate:LaunchTemplate"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
MIG = "gcp:compute/instanceGroupManager:InstanceGroupManager"
TEMPLATE = "gcp:compute/instanceTemplate:InstanceTemplate"
ESS = "alicloud:ess/scalingGroup:ScalingGroup"
ESS_CONFIG = "alicloud:ess/scalingConfiguration:ScalingConfiguration"


def _change(kind: str, action: str, *changed: str) -> Change:
    return Change(action, kind, "c-nodes", f"urn:pulumi:s::trainstack::{kind}::c-nodes", changed=changed)


@pytest.mark.parametrize(
    ("kind", "action", "changed", "replaced", "words"),
    cases("node_effects.yaml", "kind", "action", "changed", "replaced", "words"),
)
def test_node_effect(kind: str, action: str, changed: list[str], replaced: bool, words: str) -> None:
    effect = node_effect(_change(kind, action, *changed))
    assert effect is not None
    assert effect[0] is replaced
    assert words in effect[1]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(_change(ASG, "create"), id="created-group"),
        pytest.param(_change(ASG, "delete"), id="deleted-group"),
        pytest.param(_change("aws:ec2/vpc:Vpc", "update", "tags.team"), id="not-a-node-group"),
    ],
)
def test_no_effect_outside_node_group_updates(change: Change) -> None:
    assert node_effect(change) is None


def _review(changes: list[Change]) -> dict:
    from trainstack.plan.runner import PlanResult

    after = PlanResult([], 1.0, 10.0, {}, hours=10.0)
    return review_json("s", "HEAD", changes, after, after, [], None)


def test_review_says_no_node_is_replaced_on_a_tag_change() -> None:
    review = _review([_change(ASG, "update", "tags"), _change(LT, "update", "tags.team")])
    assert review["nodes"] == {"replaced": [], "kept": ["c-nodes", "c-nodes"], "removed": [], "deleted": []}
    assert review["changes"][0]["nodes"].startswith("no running node is replaced")
    text = review_markdown(review)
    assert "✅ **No running node is replaced**" in text
    assert "<br>nodes: no running node is replaced" in text
    assert "Running nodes are replaced" not in text


def test_review_warns_when_nodes_are_replaced() -> None:
    review = _review([_change(ASG, "update", "mixedInstancesPolicy.launchTemplate.overrides[0].instanceType")])
    assert review["nodes"]["replaced"] == ["c-nodes"]
    text = review_markdown(review)
    assert "⚠️ **Running nodes are replaced** by the change to `c-nodes`" in text
    assert "No running node is replaced" not in text


SIZES = {ASG: "desiredCapacity", MIG: "targetSize", VMSS: "sku.capacity", ESS: "desiredCapacity"}


def _resize(kind: str, before: int, after: int) -> Change:
    return Change(
        "update",
        kind,
        "c-nodes",
        f"urn:pulumi:s::trainstack::{kind}::c-nodes",
        changed=(SIZES[kind],),
        node_counts=(before, after),
    )


@pytest.mark.parametrize(
    ("kind", "before", "after", "words"),
    [
        pytest.param(ASG, 2, 4, "2 -> 4 nodes: 2 added; the 2 running ones keep running", id="aws-grow"),
        pytest.param(MIG, 1, 2, "1 -> 2 nodes: 1 added; the running one keeps running", id="gcp-grow-from-one"),
        pytest.param(
            VMSS,
            2,
            1,
            "2 -> 1 nodes: the group terminates 1 running node (the cloud picks which) and whatever runs "
            "on it; the other 1 keeps running",
            id="azure-shrink-to-one",
        ),
        pytest.param(
            ESS,
            8,
            5,
            "8 -> 5 nodes: the group terminates 3 running nodes (the cloud picks which) and whatever runs "
            "on them; the other 5 keep running",
            id="alicloud-shrink",
        ),
    ],
)
def test_a_resize_says_how_many_nodes_it_adds_or_terminates(kind: str, before: int, after: int, words: str) -> None:
    """A shrinking group terminates running nodes: "the running ones keep running" would be untrue."""
    assert node_effect(_resize(kind, before, after)) == (False, words)
    review = _review([_resize(kind, before, after)])
    shrinks = after < before
    removed = ["c-nodes"] if shrinks else []
    assert review["nodes"] == {"replaced": [], "kept": ["c-nodes"], "removed": removed, "deleted": []}
    text = review_markdown(review)
    assert ("⚠️ **Running nodes are removed**: `c-nodes` shrinks and terminates running nodes" in text) is shrinks
    assert ("✅ **No running node is replaced**" in text) is not shrinks


@pytest.mark.parametrize(
    ("kind", "path"),
    [pytest.param(kind, path, id=kind.split(":")[0]) for kind, path in sorted(NODE_COUNTS.items())],
)
def test_every_node_count_input_is_one_that_only_resizes(kind: str, path: str) -> None:
    """The count a cloud names must be one of its group's resize inputs, or no resize line reads it."""
    assert path in EFFECTS[kind].resizes


@pytest.mark.parametrize(
    ("kind", "warned"),
    [
        pytest.param(ASG, True, id="aws-group"),
        pytest.param(MIG, True, id="gcp-group"),
        pytest.param(LT, False, id="a-template-holds-no-node"),
    ],
)
def test_a_deleted_node_group_says_its_running_nodes_go(kind: str, warned: bool) -> None:
    """A platform change (vm -> sagemaker) deletes the group: its nodes go with it."""
    review = _review([_change(kind, "delete")])
    assert review["nodes"]["deleted"] == (["c-nodes"] if warned else [])
    text = review_markdown(review)
    assert ("> ⚠️ **Running nodes are deleted** with `c-nodes`, and whatever runs on them." in text) is warned
    assert "No running node is replaced" not in text


def test_a_deleted_node_instance_says_its_node_goes() -> None:
    """Baidu makes one BccInstance per node: 2 -> 1 nodes deletes `c-node-1`, a running node."""
    bcc = "pulumi-python:dynamic/baiducloud:BccInstance"
    node = Change("delete", bcc, "c-node-1", f"urn:pulumi:s::trainstack::{bcc}::c-node-1")
    head = Change("delete", "aws:ec2/instance:Instance", "c-head", "urn:c-head")
    review = _review([node, head])
    assert review["nodes"]["deleted"] == ["c-node-1"]
    assert "> ⚠️ **Running nodes are deleted** with `c-node-1`, and whatever runs on them." in review_markdown(review)


def test_review_without_node_groups_says_nothing_about_nodes() -> None:
    text = review_markdown(_review([_change("aws:ec2/vpc:Vpc", "update", "tags.team")]))
    assert "running node" not in text.lower()


def test_a_replaced_gcp_template_updates_its_group_which_recreates_no_vm():
    """End to end through the diff: new labels replace the template (immutable); the group
    then points at the new one (an update of its version), and neither touches running VMs."""
    from tests.components.gcp.gcp_harness import build, make_config
    from trainstack.review.diff import diff_plans

    before, after = build(make_config()).records, build(make_config(tags={"team": "vision"})).records
    changes = {(c.type, c.name): c for c in diff_plans(before, after, "s")}
    template, group = changes[(TEMPLATE, "train-template")], changes[(MIG, "train-nodes")]
    assert template.action == "replace"
    assert group.action == "update" and group.changed == ("versions.instanceTemplate",)
    assert node_effect(template) == (False, node_effect(template)[1])
    assert node_effect(group)[0] is False and "OPPORTUNISTIC" in node_effect(group)[1]


def _purchase_review(changes: list[Change], old: str, new: str) -> dict:
    from trainstack.plan.runner import PlanResult

    before = PlanResult([], 26.18, 261.8, {}, hours=10.0, purchase=old)
    after = PlanResult([], 194.98, 1949.8, {}, hours=10.0, purchase=new)
    return review_json("s", "HEAD", changes, before, after, [], None)


TEMPLATE_REPLACED = Change("replace", TEMPLATE, "c-template", f"urn:pulumi:s::trainstack::{TEMPLATE}::c-template")


GCP_MOVE = [TEMPLATE_REPLACED, _change(MIG, "update", "versions.instanceTemplate")]
ASG_MOVE = [_change(ASG, "update", "mixedInstancesPolicy.instancesDistribution.spotAllocationStrategy")]
TENCENT_CONFIG = "tencentcloud:As/scalingConfig:ScalingConfig"
TO_ON_DEMAND, TO_SPOT = ("spot", "on-demand"), ("on-demand", "spot")


# GCP: a new template and the group's version (OPPORTUNISTIC); the Chinese clouds' scaling
# configurations: new nodes only. AWS: the purchase option starts an instance refresh; Azure
# recreates the scale set.
@pytest.mark.parametrize(
    ("changes", "move", "keep"),
    [
        pytest.param(GCP_MOVE, TO_ON_DEMAND, True, id="gcp-spot-to-on-demand"),
        pytest.param(GCP_MOVE, TO_SPOT, True, id="gcp-on-demand-to-spot"),
        pytest.param([_change(ESS_CONFIG, "update", "spotStrategy")], TO_ON_DEMAND, True, id="alicloud-config"),
        pytest.param([_change(TENCENT_CONFIG, "update", "instanceChargeType")], TO_SPOT, True, id="tencent-config"),
        pytest.param(ASG_MOVE, TO_ON_DEMAND, False, id="aws-refresh"),
        pytest.param([_change(VMSS, "replace", "virtualMachineProfile.priority")], TO_SPOT, False, id="azure-new-set"),
    ],
)
def test_a_purchase_change_says_whether_running_nodes_get_it(changes, move, keep) -> None:
    old, new = move
    review = _purchase_review(changes, old, new)
    assert review["purchase"] == {"before": old, "after": new, "running_nodes_keep_it": keep}
    text = review_markdown(review)
    assert (f"⚠️ **Running nodes stay {old}**: the purchase option changes from {old} to {new}" in text) is keep
    assert f"until the running nodes are replaced they stay {old} and are billed as {old}" in text or not keep
    assert "✅ **No running node is replaced**" not in text
    if not keep:
        assert "⚠️ **Running nodes are replaced**" in text


def test_an_unchanged_purchase_option_adds_no_warning() -> None:
    review = _purchase_review([_change(MIG, "update", "versions.instanceTemplate")], "spot", "spot")
    assert review["purchase"] is None
    assert "✅ **No running node is replaced**" in review_markdown(review)


def test_a_gcp_spot_cluster_moved_to_on_demand_keeps_its_running_spot_vms() -> None:
    """End to end through the diff (U8): the purchase option is in the immutable template, so
    the group only gets a new version, and the review says the running VMs stay spot."""
    from tests.components.gcp.gcp_harness import build, make_config
    from trainstack.plan.runner import PlanResult
    from trainstack.review.diff import diff_plans

    spot, on_demand = make_config(purchase="spot"), make_config(purchase="on-demand")
    changes = diff_plans(build(spot).records, build(on_demand).records, "s")
    before = PlanResult([], 26.18, 261.8, {}, hours=10.0, purchase=spot.purchase)
    after = PlanResult([], 194.98, 1949.8, {}, hours=10.0, purchase=on_demand.purchase)
    review = review_json("s", "HEAD", changes, before, after, [], None)
    assert review["nodes"]["replaced"] == [] and "train-nodes" in review["nodes"]["kept"]
    assert review["purchase"]["running_nodes_keep_it"] is True
    assert "⚠️ **Running nodes stay spot**" in review_markdown(review)


def test_a_zone_change_says_the_nodes_lose_their_subnet(tmp_path):
    import shutil
    from pathlib import Path

    from trainstack.plan.runner import run_plan
    from trainstack.review.diff import diff_plans
    from trainstack.review.report import review_json

    root = Path(__file__).resolve().parents[2]
    plans = []
    for zone in ("use1-az1", "use1-az4"):
        project = tmp_path / zone
        (project / "stacks").mkdir(parents=True)
        shutil.copy(root / "Pulumi.yaml", project)
        shutil.copy(root / "__main__.py", project)
        text = (root / "stacks" / "Pulumi.training-a100.yaml").read_text()
        text = text.replace("zone: eun1-az3", "zone: use1-az1").replace("eu-north-1", "us-east-1")  # into us-east-1
        (project / "stacks" / "Pulumi.training-a100.yaml").write_text(text.replace("zone: use1-az1", f"zone: {zone}"))
        plans.append(run_plan("training-a100", project))
    changes = diff_plans(plans[0].resources, plans[1].resources, "training-a100")
    review = review_json("training-a100", "HEAD", changes, plans[0], plans[1], [], None)
    assert review["nodes"]["replaced"] == ["training-a100-nodes"]
    group = next(c for c in review["changes"] if c["name"] == "training-a100-nodes")
    assert group["nodes"].startswith("the nodes lose their subnet (it is replaced)")


@pytest.mark.parametrize(
    ("changes", "keep"),
    [
        pytest.param(GCP_MOVE, True, id="gcp-new-template"),
        pytest.param([_change(ESS_CONFIG, "update", "instanceType")], True, id="alicloud-config"),
        pytest.param(
            [_change(ASG, "update", "mixedInstancesPolicy.launchTemplate.overrides[0].instanceType")],
            False,
            id="aws-refresh",
        ),
    ],
)
def test_an_instance_type_change_says_whether_running_nodes_get_it(changes, keep) -> None:
    """GCP a3-highgpu-8g -> -4g only changes the template: the running VMs stay 8g and bill as 8g
    while the after price is for 4g."""
    from trainstack.plan.runner import PlanResult

    before = PlanResult([], 26.18, 1885.56, {}, hours=72.0, instance_type="a3-highgpu-8g")
    after = PlanResult([], 13.86, 998.67, {}, hours=72.0, instance_type="a3-highgpu-4g")
    review = review_json("s", "HEAD", changes, before, after, [], None)
    assert review["instance_type"] == {
        "before": "a3-highgpu-8g",
        "after": "a3-highgpu-4g",
        "running_nodes_keep_it": keep,
    }
    text = review_markdown(review)
    stays = "⚠️ **Running nodes stay a3-highgpu-8g**: the instance type changes from a3-highgpu-8g to a3-highgpu-4g"
    assert (stays in text) is keep
    assert ("they stay a3-highgpu-8g and are billed as a3-highgpu-8g" in text) is keep
    assert "✅ **No running node is replaced**" not in text
