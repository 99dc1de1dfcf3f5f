"""One contract, every provider: the committed example stacks planned under mocks.

For each cloud the same rules hold: the component's type token, every child parented to
the component, cost tags/labels on everything that takes them, the common output names,
stateful resources (file systems) protected, and no inbound rule open to the internet.
"""

from pathlib import Path

import pytest

from components.contract import OUTPUT_NAMES
from trainstack.plan import run_plan

ROOT = Path(__file__).resolve().parents[2]
STACKS = {
    "training-a100": "aws",
    "training-h100-azure": "azure",
    "training-a3-gcp": "gcp",
    "training-tpu-v5p": "gcp",
}
# Resource types whose API takes no tags or labels.
UNTAGGABLE = {
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
    "aws:ec2/routeTableAssociation:RouteTableAssociation",
    "azure-native:network:Subnet",
    "tls:index/privateKey:PrivateKey",
    "gcp:compute/network:Network",
    "gcp:compute/subnetwork:Subnetwork",
    "gcp:compute/firewall:Firewall",
    "gcp:compute/router:Router",
    "gcp:compute/routerNat:RouterNat",
    "gcp:compute/resourcePolicy:ResourcePolicy",
    "gcp:projects/iAMMember:IAMMember",
    "gcp:serviceaccount/account:Account",
    "gcp:servicenetworking/connection:Connection",
}
STATEFUL = {
    "aws:fsx/lustreFileSystem:LustreFileSystem",
    "azure-native:storagecache:AmlFilesystem",
    "gcp:filestore/instance:Instance",
    "gcp:lustre/instance:Instance",
}
WORLD = {"0.0.0.0/0", "::/0", "*", "Internet", "Any"}


@pytest.fixture(scope="module", params=sorted(STACKS), ids=sorted(STACKS))
def plan(request):
    return request.param, run_plan(request.param, ROOT)


def component(plan_result):
    (root,) = [r for r in plan_result.resources if r["parent"] is None]
    return root


def test_type_token_and_parenting(plan):
    stack, result = plan
    root = component(result)
    assert root["type"] == f"trainstack:{STACKS[stack]}:GpuCluster"
    assert root["name"] == stack
    children = [r for r in result.resources if r is not root]
    assert len(children) >= 8
    assert {r["parent"] for r in children} == {stack}


def test_cost_tags_or_labels_everywhere(plan):
    stack, result = plan
    for r in result.resources:
        if r["type"] in UNTAGGABLE or r is component(result):
            continue
        tags = r["inputs"].get("tags") or r["inputs"].get("labels")
        assert tags, f"{r['type']} {r['name']} has no tags/labels"
        assert tags.get("trainstack:cluster", tags.get("trainstack-cluster")) == stack, r["name"]
        assert tags.get("trainstack:provider", tags.get("trainstack-provider")) == STACKS[stack], r["name"]


def test_common_outputs(plan):
    _, result = plan
    assert set(result.outputs) == set(OUTPUT_NAMES)
    assert result.outputs["usd_per_hour"] == result.usd_per_hour > 0
    assert result.outputs["file_system_dns"]


def test_only_stateful_resources_are_protected(plan):
    _, result = plan
    protected = {r["type"] for r in result.resources if r["protect"]}
    assert protected and protected <= STATEFUL
    assert all(r["protect"] for r in result.resources if r["type"] in STATEFUL)


def _world_ingress(resource):
    """Inbound allow rules whose source is the whole internet, in each provider's shape."""
    inputs, kind = resource["inputs"], resource["type"]
    if kind == "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule":
        return [inputs] if inputs.get("cidrIpv4") in WORLD or inputs.get("cidrIpv6") in WORLD else []
    if kind == "azure-native:network:NetworkSecurityGroup":
        return [rule for rule in inputs.get("securityRules", [])
                if rule["direction"] == "Inbound" and rule["access"] == "Allow"
                and rule.get("sourceAddressPrefix") in WORLD]
    if kind == "gcp:compute/firewall:Firewall" and inputs.get("direction", "INGRESS") == "INGRESS":
        return [inputs] if WORLD & set(inputs.get("sourceRanges", [])) else []
    return []


def test_nothing_open_to_the_internet(plan):
    _, result = plan
    assert [r["name"] for r in result.resources if _world_ingress(r)] == []
    kinds = {r["type"] for r in result.resources}
    assert kinds & {"aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
                    "azure-native:network:NetworkSecurityGroup", "gcp:compute/firewall:Firewall"}


@pytest.mark.parametrize(
    "record",
    [
        {"type": "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule", "inputs": {"cidrIpv4": "0.0.0.0/0", "fromPort": 22}},
        {"type": "azure-native:network:NetworkSecurityGroup", "inputs": {"securityRules": [
            {"direction": "Inbound", "access": "Allow", "sourceAddressPrefix": "*", "destinationPortRange": "22"}]}},
        {"type": "gcp:compute/firewall:Firewall", "inputs": {"direction": "INGRESS", "sourceRanges": ["0.0.0.0/0"]}},
    ],
    ids=["aws", "azure", "gcp"],
)
def test_world_ingress_detector_catches_open_rules(record):
    assert _world_ingress(record)
