"""Diffing two plans: URNs, changed input paths, replace-on-change and the PR comment."""

import pytest

from tests.cases import cases
from trainstack.plan.runner import PlanResult
from trainstack.review.diff import changed_paths, diff_plans, summary, urns
from trainstack.review.markdown import review_markdown
from trainstack.review.replacements import replace_keys
from trainstack.review.report import review_json

FSX = "aws:fsx/lustreFileSystem:LustreFileSystem"
LT = "aws:ec2/launchTemplate:LaunchTemplate"
NODE = "aws:ec2/instance:Instance"
VMSS = "azure-native:compute:VirtualMachineScaleSet"


def rec(kind, name, parent="c", protect=False, **inputs):
    return {"type": kind, "name": name, "parent": parent, "protect": protect, "inputs": inputs}


def cluster(**fsx):
    return [
        rec("trainstack:aws:GpuCluster", "c", parent=None),
        rec(LT, "c-lt", instanceType="p4d.24xlarge"),
        rec(NODE, "c-node-0", launchTemplate={"id": "c-lt-id", "version": "1"}),
        rec(FSX, "c-fsx", protect=True, **{"storageCapacity": 4800, "deploymentType": "PERSISTENT_2", **fsx}),
    ]


def test_urns_follow_the_parent_type_chain_like_the_engine():
    assert sorted(urns(cluster(), "dev"))[:2] == [
        "urn:pulumi:dev::trainstack::trainstack:aws:GpuCluster$aws:ec2/instance:Instance::c-node-0",
        "urn:pulumi:dev::trainstack::trainstack:aws:GpuCluster$aws:ec2/launchTemplate:LaunchTemplate::c-lt",
    ]
    assert "urn:pulumi:dev::trainstack::trainstack:aws:GpuCluster::c" in urns(cluster(), "dev")


def test_changed_paths_are_leaf_paths():
    old = {"a": {"b": 1, "c": [1, 2]}, "d": [{"e": 1}], "gone": 1}
    new = {"a": {"b": 2, "c": [1, 2, 3]}, "d": [{"e": 2}], "added": 1}
    assert changed_paths(old, new) == ["a.b", "a.c", "added", "d[0].e", "gone"]


@pytest.mark.parametrize(("kind", "old", "new", "keys"), cases("replace_keys.yaml", "kind", "old", "new", "keys"))
def test_replace_keys(kind, old, new, keys):
    assert replace_keys(kind, changed_paths(old, new), old, new) == keys


def test_actions_and_the_launch_template_cascade():
    before = cluster()
    after = [r for r in cluster() if r["name"] != "c-node-0"]
    after[1] = rec(LT, "c-lt", instanceType="p5.48xlarge")
    after += [
        rec(NODE, "c-node-0", launchTemplate={"id": "c-lt-id", "version": "1"}),
        rec(NODE, "c-node-1", launchTemplate={"id": "c-lt-id", "version": "1"}),
    ]
    changes = {c.name: c for c in diff_plans(before, after, "dev")}
    assert changes["c-lt"].action == "update" and changes["c-lt"].changed == ("instanceType",)
    assert changes["c-node-0"].action == "replace"  # the template's new version relaunches the node
    assert changes["c-node-0"].replace_keys == ("launchTemplate.version",)
    assert changes["c-node-1"].action == "create"
    assert changes["c-fsx"].action == "same"
    removed = diff_plans(before, before[:2], "dev")
    assert summary(removed) == {"create": 0, "update": 0, "replace": 0, "delete": 2, "same": 2}


def test_markdown_warns_when_the_file_system_would_be_replaced():
    before = PlanResult(cluster(), 10.0, 720.0, {})
    after = PlanResult(cluster(subnetIds="other"), 12.5, 900.0, {})
    changes = diff_plans(before.resources, after.resources, "dev")
    review = review_json("dev", "main", changes, before, after, [], None)
    assert review["data_loss"] == ["c-fsx"]
    text = review_markdown(review)
    assert "⚠️ **Data loss risk:** `c-fsx` would be replaced or deleted." in text
    assert "| 🔁 replace | `aws:fsx/lustreFileSystem:LustreFileSystem` | `c-fsx` | `subnetIds` (replaces) |" in text
    assert "| USD/hour | 10.00 | 12.50 | +2.50 |" in text
    assert "| USD/job (72.0 h) | 720.00 | 900.00 | +180.00 |" in text


def test_a_replaced_subnet_replaces_what_lives_in_it(tmp_path):
    """Moving an AWS cluster to another zone replaces its subnets; the file system and the
    nodes in them follow (the FSx replacement is data loss the review must show)."""
    import shutil
    from pathlib import Path

    import yaml

    from tests.clusters import BASE_CLUSTER
    from trainstack.plan.runner import run_plan
    from trainstack.review.diff import diff_plans

    root = Path(__file__).resolve().parents[2]
    shutil.copy(root / "__main__.py", tmp_path)
    (tmp_path / "stacks").mkdir()
    plans = []
    for zone in ("use1-az4", "use1-az6"):
        config = {"config": {"aws:region": "us-east-1", "trainstack:cluster": {**BASE_CLUSTER, "zone": zone}}}
        (tmp_path / "stacks" / "Pulumi.dev.yaml").write_text(yaml.safe_dump(config))
        plans.append(run_plan("dev", tmp_path).resources)
    actions = {c.name: c for c in diff_plans(*plans, "dev")}
    assert actions["dev-subnet"].action == "replace"
    assert actions["dev-fsx"].action == "replace" and "subnetIds" in actions["dev-fsx"].replace_keys
    assert actions["dev-lt"].action == "update"
    assert actions["dev-vpc"].action == "same"


def test_markdown_summary_of_a_new_and_of_an_unpriced_stack():
    after = PlanResult([rec(NODE, "c-node-0")], 12.5, 900.0, {}, hours=72.0)
    review = review_json("dev", "main", diff_plans([], after.resources, "dev"), None, after, [], None)
    assert "**new: $12.50/hour** · **$900.00/job**" in review_markdown(review)
    unpriced = PlanResult([rec(NODE, "c-node-0")], None, None, {}, hours=72.0)
    review = review_json(
        "dev", "main", diff_plans(after.resources, unpriced.resources, "dev"), after, unpriced, [], None
    )
    text = review_markdown(review)
    assert "**$12.50 → price unknown/hour** · **$900.00 → price unknown/job**" in text
    assert "| USD/hour | 12.50 | unknown | – |" in text and review["cost"]["after"]["hours"] == 72.0


def test_a_region_move_replaces_everything_the_cluster_keeps():
    from trainstack.review.diff import moved_region

    before = [rec(FSX, "c-fsx", protect=True, subnetIds=["s"]), rec(NODE, "c-node-0"), rec(NODE, "c-node-1")]
    after = [rec(FSX, "c-fsx", protect=True, subnetIds=["s"]), rec(NODE, "c-node-0", instanceType="p5")]
    changes = {c.name: c for c in moved_region(diff_plans(before, after, "dev"), "us-east-1", "eu-west-1")}
    assert changes["c-fsx"].action == "replace" and changes["c-fsx"].replace_keys == ("region",)
    assert changes["c-node-0"].action == "replace" and "region" in changes["c-node-0"].replace_keys
    assert changes["c-node-1"].action == "delete"
    same = moved_region(diff_plans(before, before, "dev"), "us-east-1", "us-east-1")
    assert {c.action for c in same} == {"same"}


def test_a_change_inside_ignore_changes_is_no_change():
    before = cluster()
    after = cluster()
    after[1] = {**rec(LT, "c-lt", instanceType="p4d.24xlarge", imageId="ami-new"), "ignore_changes": ["imageId"]}
    before[1] = {**rec(LT, "c-lt", instanceType="p4d.24xlarge", imageId="ami-old"), "ignore_changes": ["imageId"]}
    assert {c.action for c in diff_plans(before, after, "dev")} == {"same"}
    after[1]["ignore_changes"] = []
    actions = {c.name: c.action for c in diff_plans(before, after, "dev")}
    assert (actions["c-lt"], actions["c-node-0"]) == ("update", "replace")  # a new template version


def test_a_change_under_the_resources_replace_on_changes_replaces_it():
    """The GCP queued-resource controller asks to be replaced when its metadata changes."""
    gce = "gcp:compute/instance:Instance"
    before = [rec(gce, "c-queued-controller", metadata={"startup-script": "old"}, machineType="e2-small")]
    after = [rec(gce, "c-queued-controller", metadata={"startup-script": "new"}, machineType="e2-small")]
    for records in (before, after):
        records[0]["replace_on_changes"] = ["metadata"]
    [change] = diff_plans(before, after, "dev")
    assert change.action == "replace" and "metadata.startup-script" in change.replace_keys
    del after[0]["replace_on_changes"]
    assert [c.action for c in diff_plans(before, after, "dev")] == ["update"]  # metadata updates in place


@pytest.mark.parametrize(
    ("path", "entries", "ignored"),
    [
        pytest.param("imageId", ["imageId"], True, id="exact"),
        pytest.param("imageIdSuffix", ["imageId"], False, id="prefix-of-another-key"),
        pytest.param("tags.team", ['tags["team"]'], True, id="quoted-key"),
        pytest.param("tags.owner", ['tags["team"]'], False, id="other-quoted-key"),
        pytest.param("disks[2].size", ["disks[*].size"], True, id="any-element"),
        pytest.param("disks[2].type", ["disks[*].size"], False, id="other-field"),
        pytest.param("metadata.a.b", ["metadata"], True, id="inside"),
        pytest.param("anything", ["*"], True, id="star"),
    ],
)
def test_ignore_changes_paths(path, entries, ignored):
    from trainstack.review.diff import ignored_path

    assert ignored_path(path, entries) is ignored


def test_a_renamed_resource_is_matched_through_its_alias_and_keeps_its_id():
    before = cluster()
    after = [
        {**r, "name": r["name"].replace("c", "n", 1), "parent": r["parent"] and "n", "aliases": [r["name"]]}
        for r in cluster()
    ]
    after[2]["inputs"] = {"launchTemplate": {"id": "c-lt-id", "version": "1"}}  # the id survives the rename
    changes = diff_plans(before, after, "dev")
    assert {c.action for c in changes} == {"same"}
    assert len(changes) == 4


LUSTRE = "gcp:lustre/instance:Instance"


@pytest.mark.parametrize(
    ("old", "new", "keys"),
    [
        pytest.param({"capacityGib": "72000"}, {"capacityGib": "36000"}, ["capacityGib"], id="capacity-shrink"),
        pytest.param({"capacityGib": "36000"}, {"capacityGib": "72000"}, [], id="capacity-grows-in-place"),
        pytest.param(
            {"perUnitStorageThroughput": "250"},
            {"perUnitStorageThroughput": "500"},
            ["perUnitStorageThroughput"],
            id="throughput-tier",
        ),
    ],
)
def test_gcp_lustre_create_time_fields_replace_and_flag_data_loss(old, new, keys):
    assert replace_keys(LUSTRE, list(old), old, new) == keys
    before = [rec(LUSTRE, "c-lustre", protect=True, **old)]
    after = [rec(LUSTRE, "c-lustre", protect=True, **new)]
    (change,) = diff_plans(before, after, "dev")
    assert change.action == ("replace" if keys else "update")
