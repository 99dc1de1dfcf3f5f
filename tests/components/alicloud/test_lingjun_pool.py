"""`LingjunPool` under Pulumi mocks: the PAI workspace plus a Lingjun cluster whose inputs follow
`pulumi_alicloud.eflo`'s schema (the eflo-controller API): a VPD and subnet in the zone, the
cluster on the management VPC and the VPD, one node group of the machine type and the stack's
`node_image`, and `nodes` nodes bought pay-as-you-go (the schema's default is a subscription)
into that group, with no key pair, password or SSH rule; the refusals name the field."""

from __future__ import annotations

import pytest

from clouds.alicloud import lingjun
from clouds.alicloud.mock import alicloud_outputs
from clouds.contract import ClusterConfig
from components.alicloud.lingjun import TYPE_TOKEN, LingjunPool
from tests.clusters import example
from tests.components.harness import build_plan

EFLO = "alicloud:eflo/"
IMAGE = "i190297201634099844192"  # the shape of a Lingjun image id in the API reference's examples


def _mock_id(typ: str, name: str, **inputs) -> tuple[str | None, dict]:
    """The id and computed outputs the mocks give resource `name` (what the real provider computes)."""
    return alicloud_outputs(EFLO + typ, name, inputs)


def _config(**changes) -> ClusterConfig:
    values = {
        **example("alicloud"),
        "region": "cn-wulanchabu",
        "zone": "cn-wulanchabu-a",
        "instance_type": "efg1.nvga1",
        "file_system": None,
        "platform": "pai-lingjun",
        "node_image": IMAGE,
        "nodes": 3,
        **changes,
    }
    return ClusterConfig.model_validate(values)


@pytest.fixture(scope="module")
def plan():
    return build_plan(LingjunPool, _config(), ("node_ids", "workspace_name", "cluster_id", "node_group_id"))


def test_cluster_and_nodes_under_mocks(plan):
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in plan.records)
    (vpd,) = plan.of_type(EFLO + "vpd:Vpd")
    (subnet,) = plan.of_type(EFLO + "subnet:Subnet")
    (cluster,) = plan.of_type(EFLO + "cluster:Cluster")
    (group,) = plan.of_type(EFLO + "nodeGroup:NodeGroup")
    nodes = plan.of_type(EFLO + "node:Node")
    assert (vpd["inputs"]["cidr"], subnet["inputs"]["cidr"]) == ("172.16.0.0/12", "172.16.0.0/16")
    assert subnet["inputs"]["zoneId"] == "cn-wulanchabu-a" and subnet["inputs"]["vpdId"].startswith("vpd-")
    assert cluster["inputs"]["clusterName"] == "c-lingjun" and cluster["inputs"]["clusterType"] == "Lite"
    networks = cluster["inputs"]["networks"]
    assert networks["vpcId"].startswith("vpc-") and networks["vswitchId"].startswith("vsw-")
    assert networks["securityGroupId"].startswith("sg-")
    vpd_id, _ = _mock_id("vpd:Vpd", "c-vpd")
    subnet_id = _mock_id("subnet:Subnet", "c-lingjun-subnet", vpdId=vpd_id)[1]["subnetId"]
    cluster_id, _ = _mock_id("cluster:Cluster", "c-lingjun")
    group_id = _mock_id("nodeGroup:NodeGroup", "c-lingjun-group", clusterId=cluster_id)[1]["nodeGroupId"]
    assert networks["vpdInfo"] == {"vpdId": vpd_id, "vpdSubnets": [subnet_id]}
    inputs = group["inputs"]
    assert (inputs["machineType"], inputs["imageId"], inputs["az"]) == ("efg1.nvga1", IMAGE, "cn-wulanchabu-a")
    assert inputs["clusterId"] == cluster_id and inputs["vpdSubnets"] == [subnet_id]
    assert "loginPassword" not in inputs and "keyPairName" not in inputs
    assert [n["inputs"]["hostname"] for n in nodes] == ["c-0", "c-1", "c-2"]
    for node in nodes:
        assert node["inputs"]["paymentType"] == "PayAsYouGo"  # never the schema's Subscription default
        assert node["inputs"]["machineType"] == "efg1.nvga1" and node["inputs"]["zone"] == "cn-wulanchabu-a"
        assert (node["inputs"]["clusterId"], node["inputs"]["nodeGroupId"]) == (cluster_id, group_id)
        assert node["inputs"]["tags"]["trainstack:cluster"] == "c" and "loginPassword" not in node["inputs"]
    assert plan.outputs["node_ids"] == [_mock_id("node:Node", n["name"])[0] for n in nodes]
    assert (plan.outputs["cluster_id"], plan.outputs["node_group_id"]) == (cluster_id, group_id)


def test_no_admin_port_and_a_protected_workspace(plan):
    rules = plan.of_type("alicloud:ecs/securityGroupRule:SecurityGroupRule")
    assert rules and all(r["inputs"]["cidrIp"] == "10.0.0.0/16" for r in rules)  # VPC-internal only
    (workspace,) = plan.of_type("alicloud:pai/workspaceWorkspace:WorkspaceWorkspace")
    assert workspace["protect"] is True and plan.outputs["workspace_name"] == "c_ws"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"node_image": None}, "node_image: a Lingjun node group", id="image"),
        pytest.param({"purchase": "spot"}, "purchase: Lingjun nodes have no spot", id="spot"),
        pytest.param({"commitment": "1y"}, "commitment: trainstack buys Lingjun nodes pay-as-you-go", id="term"),
        pytest.param({"file_system": example("alicloud")["file_system"]}, "file_system: a PAI job", id="fs"),
        pytest.param({"ssh_cidrs": ["203.0.113.7/32"]}, "ssh_cidrs: Lingjun nodes", id="ssh"),
    ],
)
def test_refused_naming_the_field(changes, field):
    with pytest.raises(ValueError, match=f"^{field}"):
        lingjun.validate_pool(_config(**changes))


@pytest.mark.parametrize(
    ("name", "index", "host"),
    [
        pytest.param("c", 0, "c-0", id="plain"),
        pytest.param("Training_A100.x", 12, "training-a100-x-12", id="rfc1123"),
        pytest.param("x" * 80, 3, "x" * 56 + "-3", id="long"),
    ],
)
def test_hostnames(name, index, host):
    assert lingjun.hostname(name, index) == host
