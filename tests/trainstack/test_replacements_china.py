"""Replace-on-change on the five Chinese clouds, proven by real reviews of the committed stacks.

Each review goes through `trainstack.review.report.build_review`, the code behind `plan --against`
and `--markdown`; only the git extraction of the old side is swapped for a plan of the
committed stack file, and the new side is a changed copy of it in a temporary project.
"""

import functools
import importlib
import json
import keyword
import shutil
from pathlib import Path

import pytest
import yaml
from pulumi._types import input_type_py_to_pulumi_names

import trainstack.review.report
from components.baiducloud.bcc_provider import BccInstanceProvider
from components.baiducloud.network_provider import SecurityGroupProvider
from components.baiducloud.replacements import BAIDU_PROVIDERS
from trainstack.plan.runner import run_plan
from trainstack.review.diff import changed_paths
from trainstack.review.markdown import review_markdown
from trainstack.review.replacements import NAME_IN_PLACE, REPLACE_ON_CHANGE, replace_keys, replace_paths
from trainstack.review.report import build_review

ROOT = Path(__file__).resolve().parents[2]
BAIDU = "pulumi-python:dynamic/baiducloud:"
# stack -> (another zone of its region, the file system's logical name or None).
STACKS = {
    "training-a100-alicloud": ("cn-beijing-i", "training-a100-alicloud-cpfs"),
    "training-a100-tencentcloud": ("ap-beijing-7", "training-a100-tencentcloud-cfs"),
    "training-a100-huaweicloud": ("cn-north-4b", "training-a100-huaweicloud-sfs"),
    "training-a10-volcengine": ("cn-beijing-b", "training-a10-volcengine-vepfs"),
    "training-a100-baiducloud": ("cn-bj-b", None),  # Baidu PFS has no API resource here
}
# The input that holds the zone (or, for the vePFS, the subnet that does).
ZONE_KEYS = {
    "training-a100-alicloud-cpfs": "zoneId",
    "training-a100-tencentcloud-cfs": "availabilityZone",
    "training-a100-huaweicloud-sfs": "availabilityZone",
    "training-a10-volcengine-vepfs": "subnetId",
}
NODE_ZONE_KEY = {
    "alicloud": "availabilityZone",
    "tencentcloud": "availabilityZone",
    "huaweicloud": "availabilityZone",
    "volcengine": "zoneId",
    "baiducloud": "zone",
}
# Stacks whose nodes are a scaling group: (group, configuration, the group's input that
# follows the zone, the node subnet's zone input).
GROUPS = {
    "training-a100-alicloud": ("training-a100-alicloud-nodes", "training-a100-alicloud-node-config", "vswitchIds"),
    "training-a10-volcengine": ("training-a10-volcengine-nodes", "training-a10-volcengine-node-config", "subnetIds"),
    "training-a100-tencentcloud": (
        "training-a100-tencentcloud-nodes",
        "training-a100-tencentcloud-node-config",
        "subnetIds",
    ),
    "training-a100-huaweicloud": (
        "training-a100-huaweicloud-nodes",
        "training-a100-huaweicloud-node-config",
        "availabilityZones",
    ),
}
# Groups whose configuration names the group (`scalingGroupId`), so it follows a new group; the
# others' group names its configuration, which a new zone leaves as it is.
CONFIGURATION_FOLLOWS_GROUP = {"training-a100-alicloud", "training-a10-volcengine"}
# What holds the nodes' zone: the subnet's type and zone input (Huawei's subnet has none: the group's).
SUBNET_TYPES = {
    "alicloud": ("alicloud:vpc/switch:Switch", "zoneId"),
    "volcengine": ("volcengine:vpc/subnet:Subnet", "zoneId"),
    "tencentcloud": ("tencentcloud:Subnet/instance:Instance", "availabilityZone"),
    "huaweicloud": ("huaweicloud:As/group:Group", "availabilityZones"),
}
GROUP_SIZES = {
    "training-a100-alicloud": ["desiredCapacity", "maxSize", "minSize"],
    "training-a10-volcengine": ["desireInstanceNumber", "maxInstanceNumber", "minInstanceNumber"],
    "training-a100-tencentcloud": ["desiredCapacity", "maxSize", "minSize"],
    "training-a100-huaweicloud": ["desireInstanceNumber", "maxInstanceNumber", "minInstanceNumber"],
}
SDKS = {
    "alicloud": "pulumi_alicloud",
    "tencentcloud": "tencentcloud_iac_pulumi",
    "huaweicloud": "pulumi_huaweicloud",
    "volcengine": "pulumi_volcengine",
}


@functools.cache
def committed(stack):
    """The plan of the committed stack file (the `--against` side)."""
    return run_plan(stack, ROOT)


def review(tmp_path, monkeypatch, stack, **cluster):
    """`plan -s STACK --against main` where main holds the committed stack and the work tree `cluster`."""
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())
    document["config"]["trainstack:cluster"].update(cluster)
    (tmp_path / "stacks").mkdir(exist_ok=True)
    (tmp_path / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump(document))
    committed(stack)  # before the patch below, after which this test's runs are its own (shared_runs.py)
    monkeypatch.setattr(
        trainstack.review.report, "plan_at_ref", lambda s, _dir, ref: committed(s) if ref == "main" else None
    )
    return json.loads(json.dumps(build_review(stack, tmp_path, against="main")))  # as `--json` prints it


def by_name(result):
    return {c["name"]: c for c in result["changes"]}


def nodes(result, stack):
    if stack in GROUPS:
        return [c for name, c in sorted(by_name(result).items()) if name in GROUPS[stack][:2]]
    return [c for name, c in sorted(by_name(result).items()) if name.startswith(f"{stack}-node-")]


def group_changes(result, stack):
    """The node group's changes in a review that touches the group (a new zone)."""
    if stack in GROUPS and stack not in CONFIGURATION_FOLLOWS_GROUP:
        return [c for c in nodes(result, stack) if c["name"] == GROUPS[stack][0]]
    return nodes(result, stack)


def node_names(stack):
    """The node resources of the committed stack: per-node instances, or a group and its configuration."""
    group = GROUPS.get(stack)
    return sorted(group[:2]) if group else [f"{stack}-node-0", f"{stack}-node-1"]


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_new_zone_replaces_nodes_and_file_system_and_flags_data_loss(tmp_path, monkeypatch, stack):
    zone, file_system = STACKS[stack]
    result = review(tmp_path, monkeypatch, stack, zone=zone)
    changes = by_name(result)

    provider = stack.rsplit("-", 1)[-1]
    zone_key = NODE_ZONE_KEY[provider]
    group_names = (
        node_names(stack) if stack in CONFIGURATION_FOLLOWS_GROUP or stack not in GROUPS else [GROUPS[stack][0]]
    )
    assert [c["name"] for c in group_changes(result, stack)] == group_names
    after = {r["name"]: r for r in run_plan(stack, tmp_path).resources}
    if stack in GROUPS:
        # The group follows its replaced subnet or zone (the component's replace_on_changes); a
        # configuration that names the group follows the new group's id, one the group names stays.
        group, configuration, follows = GROUPS[stack]
        assert changes[group]["action"] == "replace"
        assert any(key.split("[")[0] == follows for key in changes[group]["replace_keys"])
        assert "every node is replaced" in changes[group]["nodes"]
        assert result["nodes"]["replaced"] == [group]
        if stack in CONFIGURATION_FOLLOWS_GROUP:
            assert changes[configuration]["action"] == "replace"
            assert changes[configuration]["replace_keys"] == ["scalingGroupId"]
        else:
            assert configuration not in changes
        subnet_type, subnet_zone = SUBNET_TYPES[provider]
        subnet = next(r for r in after.values() if r["type"] == subnet_type)
        assert subnet["inputs"][subnet_zone] in (zone, [zone])
    else:
        for node in nodes(result, stack):
            assert node["action"] == "replace" and zone_key in node["replace_keys"], node
        assert after[f"{stack}-node-0"]["inputs"][zone_key] == zone

    if file_system is None:
        assert result["data_loss"] == []
        assert not any(c["protect"] for c in result["changes"])
    else:
        assert changes[file_system]["action"] == "replace"
        assert ZONE_KEYS[file_system] in changes[file_system]["replace_keys"]
        assert changes[file_system]["protect"] is True
        assert result["data_loss"] == [file_system]
        assert f"**Data loss risk:** `{file_system}` would be replaced or deleted." in review_markdown(result)
    assert result["summary"]["update"] == 0 and result["summary"]["create"] == result["summary"]["delete"] == 0


def test_volcengine_vepfs_follows_its_replaced_subnet(tmp_path, monkeypatch):
    """The vePFS has no zone input: the new zone replaces the subnet, whose new id replaces it."""
    stack = "training-a10-volcengine"
    changes = by_name(review(tmp_path, monkeypatch, stack, zone="cn-beijing-b"))
    assert changes[f"{stack}-subnet"]["replace_keys"] == ["zoneId"]
    assert changes[f"{stack}-vepfs"]["replace_keys"] == ["subnetId"]
    assert changes[f"{stack}-mount"]["replace_keys"] == ["subnetId"]
    assert changes[f"{stack}-mount-vepfs"]["replace_keys"] == ["fileSystemId", "mountServiceId"]


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_tags_only_change_updates_in_place(tmp_path, monkeypatch, stack):
    result = review(tmp_path, monkeypatch, stack, tags={"team": "vision"})
    assert result["summary"]["replace"] == 0 and result["data_loss"] == []
    assert result["summary"]["update"] >= 3
    for change in result["changes"]:
        assert change["action"] == "update" and change["replace_keys"] == [], change
        assert all(path.split(".")[0] in ("tags", "volumeTags", "instanceTags") for path in change["changed"]), change
    # A Huawei AS configuration takes no tags: only its group's change.
    tagged = [n for n in node_names(stack) if not (stack.endswith("huaweicloud") and n.endswith("-node-config"))]
    assert sorted(n["name"] for n in nodes(result, stack)) == tagged
    _zone, file_system = STACKS[stack]
    if file_system:
        assert by_name(result)[file_system]["action"] == "update"


def test_alicloud_cpfs_throughput_change_replaces_it(tmp_path, monkeypatch):
    """100 -> 200 MB/s/TiB is `storage_type` advance_100 -> advance_200: "(Required, ForceNew)"."""
    stack, cpfs = "training-a100-alicloud", "training-a100-alicloud-cpfs"
    result = review(tmp_path, monkeypatch, stack, file_system={"capacity_gib": 4800, "throughput_mbps_per_tib": 200})
    change = by_name(result)[cpfs]
    assert change["action"] == "replace" and change["replace_keys"] == ["storageType"]
    assert result["data_loss"] == [cpfs]
    before = {r["name"]: r for r in committed(stack).resources}
    assert before[cpfs]["inputs"]["storageType"] == "advance_100"
    assert by_name(result)[f"{stack}-cpfs-mount"]["replace_keys"] == ["fileSystemId"]  # the new CPFS id


@pytest.mark.parametrize("stack", [s for s, (_zone, fs) in sorted(STACKS.items()) if fs])
def test_more_nodes_never_replace_the_file_system(tmp_path, monkeypatch, stack):
    result = review(tmp_path, monkeypatch, stack, nodes=3)
    if stack in GROUPS:
        group = by_name(result)[GROUPS[stack][0]]
        assert group["action"] == "update" and group["changed"] == GROUP_SIZES[stack]
        assert group["nodes"] == "2 -> 3 nodes: 1 added; the 2 running ones keep running"
    else:
        assert by_name(result)[f"{stack}-node-2"]["action"] == "create"
    assert STACKS[stack][1] not in by_name(result) and result["data_loss"] == []


def test_baidu_replaces_on_every_input_but_its_in_place_ones(tmp_path, monkeypatch):
    """Baidu's own `diff`: only `name`, `tags` (BccInstance) and `rules` (SecurityGroup) change in place."""
    stack = "training-a100-baiducloud"
    result = review(tmp_path, monkeypatch, stack, purchase="spot", ssh_cidrs=["10.8.0.0/16"])
    changes = by_name(result)
    for node in nodes(result, stack):
        assert node["action"] == "replace" and node["replace_keys"] == ["bid_model"], node
    assert changes[f"{stack}-sg"]["action"] == "update" and changes[f"{stack}-sg"]["changed"] == ["rules"]

    kind = f"{BAIDU}BccInstance"
    old = {"name": "a", "tags": {"k": "1"}, "spec": "s1", "zone": "cn-bj-a"}
    new = {"name": "b", "tags": {"k": "2"}, "spec": "s2", "zone": "cn-bj-a"}
    assert replace_keys(kind, changed_paths(old, new), old, new) == ["spec"]
    assert kind in NAME_IN_PLACE and "name" not in replace_paths(kind)
    assert set(replace_paths(kind)) == set(BccInstanceProvider.INPUTS) - {"name", "tags"}
    assert "rules" not in replace_paths(f"{BAIDU}SecurityGroup") and "vpc_id" in replace_paths(f"{BAIDU}SecurityGroup")
    assert set(SecurityGroupProvider.UPDATABLE) == {"rules"}


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_every_planned_type_has_a_sourced_entry(stack):
    kinds = {r["type"] for r in committed(stack).resources} - {f"trainstack:{stack.rsplit('-', 1)[-1]}:GpuCluster"}
    missing = sorted(k for k in kinds if k not in REPLACE_ON_CHANGE)
    assert missing == []
    if stack.endswith("baiducloud"):
        assert {k.removeprefix(BAIDU) for k in kinds if k.startswith(BAIDU)} == set(BAIDU_PROVIDERS)


def test_listed_inputs_exist_in_the_installed_sdks():
    """A typo would never match: every listed top-level input is one the bridged SDK takes."""
    for kind, paths in REPLACE_ON_CHANGE.items():
        package, module, name = kind.split(":")
        if package not in SDKS:
            continue
        folder = module.split("/")[0].lower()
        sdk = importlib.import_module(f"{SDKS[package]}.{folder}{'_' if keyword.iskeyword(folder) else ''}")
        args = getattr(sdk, f"{name}InitArgs", None) or getattr(sdk, f"{name}Args")
        inputs = set(input_type_py_to_pulumi_names(args).values())
        unknown = [p for p in paths if p.split(".")[0].split("[")[0].rstrip("#") not in inputs]
        assert unknown == [], kind


@pytest.mark.parametrize(
    ("stack", "cluster", "configuration_action", "group_changed"),
    [
        pytest.param(
            "training-a100-tencentcloud",
            {"instance_type": "GN10Xp.20XLARGE320", "accelerator": "V100-32GB", "accelerator_count": 8},
            "update",
            None,
            id="tencent-launch-configuration-in-place",
        ),
        pytest.param(
            "training-a100-huaweicloud",
            {"instance_type": "p5s.40xlarge.12", "accelerator": "H100", "accelerator_count": 8},
            "replace",
            ["scalingConfigurationId"],
            id="huawei-new-configuration",
        ),
    ],
)
def test_a_new_instance_type_replaces_no_running_node(
    tmp_path, monkeypatch, stack, cluster, configuration_action, group_changed
):
    """A template change reaches only the nodes created from then on: the configuration is updated
    (Tencent) or replaced (Huawei, whose group then points at it in place); no node is rolled."""
    result = review(tmp_path, monkeypatch, stack, **cluster)
    group, configuration, _follows = GROUPS[stack]
    changes = by_name(result)
    assert changes[configuration]["action"] == configuration_action
    assert "running nodes keep theirs" in changes[configuration]["nodes"]
    if group_changed is None:
        assert group not in changes
    else:
        assert changes[group]["action"] == "update" and changes[group]["changed"] == group_changed
        assert "no running node is replaced" in changes[group]["nodes"]
    assert result["nodes"]["replaced"] == [] and result["data_loss"] == []
