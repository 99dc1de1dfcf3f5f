"""Every rule on deliberately bad records (each rule can fail) and on good ones."""

import re

import pytest

from policies import evaluate
from policies.rules import check_resource
from policies.stack_rules import budget, efa_self_rule, spot_has_checkpoint_storage

TAGS = {"trainstack:cluster": "c", "trainstack:provider": "aws"}
LABELS = {"trainstack-cluster": "c", "trainstack-provider": "gcp"}
LT = "aws:ec2/launchTemplate:LaunchTemplate"
INGRESS = "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule"
EGRESS = "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule"
FSX = "aws:fsx/lustreFileSystem:LustreFileSystem"


def record(kind, name="r", protect=False, **inputs):
    return {"type": kind, "name": name, "parent": "c", "protect": protect, "inputs": inputs}


def good_template(**overrides):
    inputs = {
        "metadataOptions": {"httpEndpoint": "enabled", "httpTokens": "required"},
        "blockDeviceMappings": [{"deviceName": "/dev/sda1", "ebs": {"encrypted": "true"}}],
        "networkInterfaces": [{"interfaceType": "efa", "securityGroups": ["c-sg-id"]}],
        "tags": TAGS,
    }
    return record(LT, "c-lt", **{**inputs, **overrides})


def rules_broken(rec):
    return sorted({v.rule for v in check_resource(rec)})


@pytest.mark.parametrize(
    ("rec", "rule"),
    [
        pytest.param(
            record(INGRESS, cidrIpv4="0.0.0.0/0", ipProtocol="tcp", fromPort=22, toPort=22, tags=TAGS),
            "no-admin-port-from-internet",
            id="aws-ssh-world",
        ),
        pytest.param(
            record(INGRESS, cidrIpv6="::/0", ipProtocol="-1", tags=TAGS),
            "no-admin-port-from-internet",
            id="aws-all-traffic-ipv6-world",
        ),
        pytest.param(
            record(
                "aws:ec2/securityGroup:SecurityGroup",
                tags=TAGS,
                ingress=[{"protocol": "tcp", "fromPort": 3380, "toPort": 3390, "cidrBlocks": ["0.0.0.0/0"]}],
            ),
            "no-admin-port-from-internet",
            id="aws-inline-rdp-range",
        ),
        pytest.param(
            record(
                "azure-native:network:NetworkSecurityGroup",
                tags=TAGS,
                securityRules=[
                    {
                        "direction": "Inbound",
                        "access": "Allow",
                        "protocol": "Tcp",
                        "sourceAddressPrefix": "Internet",
                        "destinationPortRange": "3389",
                    }
                ],
            ),
            "no-admin-port-from-internet",
            id="azure-rdp-internet",
        ),
        pytest.param(
            record(
                "gcp:compute/firewall:Firewall",
                direction="INGRESS",
                sourceRanges=["0.0.0.0/0"],
                allows=[{"protocol": "tcp", "ports": ["20-30"]}],
            ),
            "no-admin-port-from-internet",
            id="gcp-ssh-range",
        ),
        pytest.param(good_template(metadataOptions={"httpTokens": "optional"}), "imdsv2-required", id="lt-imdsv1"),
        pytest.param(
            record("aws:ec2/instance:Instance", tags=TAGS, rootBlockDevice={"encrypted": True}),
            "imdsv2-required",
            id="instance-without-template",
        ),
        pytest.param(
            good_template(blockDeviceMappings=[{"ebs": {"encrypted": "false"}}]),
            "disks-encrypted",
            id="lt-unencrypted-root",
        ),
        pytest.param(good_template(blockDeviceMappings=[]), "disks-encrypted", id="lt-root-undeclared"),
        pytest.param(
            record("aws:efs/fileSystem:FileSystem", protect=True, tags=TAGS), "disks-encrypted", id="efs-unencrypted"
        ),
        pytest.param(record(FSX, tags=TAGS), "stateful-protected", id="fsx-unprotected"),
        pytest.param(
            record("gcp:filestore/instance:Instance", labels=LABELS), "stateful-protected", id="filestore-unprotected"
        ),
        pytest.param(
            record("aws:ec2/vpc:Vpc", tags={"trainstack:cluster": "c"}), "cost-tags", id="aws-no-provider-tag"
        ),
        pytest.param(record("gcp:compute/instance:Instance"), "cost-tags", id="gcp-no-labels"),
    ],
)
def test_each_resource_rule_catches_its_violation(rec, rule):
    assert rules_broken(rec) == [rule]


@pytest.mark.parametrize(
    "rec",
    [
        pytest.param(good_template(), id="good-template"),
        pytest.param(
            record("aws:ec2/instance:Instance", launchTemplate={"id": "c-lt-id"}, tags=TAGS),
            id="instance-from-template",
        ),
        pytest.param(
            record(INGRESS, cidrIpv4="203.0.113.0/24", ipProtocol="tcp", fromPort=22, toPort=22, tags=TAGS),
            id="ssh-from-office",
        ),
        pytest.param(
            record(INGRESS, cidrIpv4="0.0.0.0/0", ipProtocol="tcp", fromPort=443, toPort=443, tags=TAGS),
            id="https-from-world",
        ),
        pytest.param(record(FSX, protect=True, tags=TAGS), id="protected-fsx"),
        pytest.param(record("aws:iam/rolePolicyAttachment:RolePolicyAttachment"), id="untaggable"),
        pytest.param(good_template(metadataOptions={"httpTokens": "<unknown>"}), id="unknown-in-preview"),
    ],
)
def test_good_records_pass(rec):
    assert check_resource(rec) == []


def efa_stack(*rules):
    return [good_template(), *rules]


def self_rule(kind, **extra):
    return record(
        kind, securityGroupId="c-sg-id", referencedSecurityGroupId="c-sg-id", ipProtocol="-1", tags=TAGS, **extra
    )


def test_efa_needs_both_self_rules():
    assert efa_self_rule(efa_stack(self_rule(INGRESS), self_rule(EGRESS))) == []
    missing = efa_self_rule(efa_stack(self_rule(INGRESS)))
    assert [v.rule for v in missing] == ["efa-security-group-self-rule"]
    assert "egress" in missing[0].message and "c-sg-id" in missing[0].message
    assert len(efa_self_rule(efa_stack())) == 2


def test_efa_rule_ignores_world_egress_and_non_efa_stacks():
    world = record(EGRESS, securityGroupId="c-sg-id", cidrIpv4="0.0.0.0/0", ipProtocol="-1", tags=TAGS)
    assert len(efa_self_rule(efa_stack(self_rule(INGRESS), world))) == 1
    plain = good_template(networkInterfaces=[{"securityGroups": ["c-sg-id"]}])
    assert efa_self_rule([plain]) == []


@pytest.mark.parametrize(
    "node",
    [
        pytest.param(record("aws:ec2/instance:Instance", instanceMarketOptions={"marketType": "spot"}), id="aws"),
        pytest.param(
            record(
                "aws:autoscaling/group:Group",
                mixedInstancesPolicy={
                    "instancesDistribution": {"onDemandBaseCapacity": 0, "onDemandPercentageAboveBaseCapacity": 0}
                },
            ),
            id="aws-group",
        ),
        pytest.param(
            record("azure-native:compute:VirtualMachineScaleSet", virtualMachineProfile={"priority": "Spot"}),
            id="azure",
        ),
        pytest.param(record("gcp:compute/instance:Instance", scheduling={"provisioningModel": "SPOT"}), id="gcp"),
        pytest.param(record("gcp:tpu/v2Vm:V2Vm", schedulingConfig={"spot": True}), id="tpu"),
        pytest.param(record("alicloud:ecs/instance:Instance", spotStrategy="SpotAsPriceGo"), id="alicloud"),
        pytest.param(record("volcengine:ecs/instance:Instance", spotStrategy="SpotWithPriceLimit"), id="volcengine"),
        pytest.param(record("huaweicloud:Ecs/instance:Instance", chargingMode="spot"), id="huaweicloud"),
        pytest.param(
            record("tencentcloud:Instance/instance:Instance", instanceChargeType="SPOTPAID"), id="tencentcloud"
        ),
        pytest.param(record("pulumi-python:dynamic/baiducloud:BccInstance", bid_model="market"), id="baiducloud"),
    ],
)
def test_spot_needs_checkpoint_storage(node):
    (violation,) = spot_has_checkpoint_storage([node])
    assert violation.rule == "spot-needs-checkpoint-storage"
    assert spot_has_checkpoint_storage([node, record(FSX, protect=True)]) == []


def test_on_demand_needs_no_storage():
    assert spot_has_checkpoint_storage([record("aws:ec2/instance:Instance")]) == []
    assert (
        spot_has_checkpoint_storage(
            [
                record(
                    "aws:autoscaling/group:Group",
                    mixedInstancesPolicy={
                        "instancesDistribution": {"onDemandBaseCapacity": 0, "onDemandPercentageAboveBaseCapacity": 100}
                    },
                )
            ]
        )
        == []
    )
    assert (
        spot_has_checkpoint_storage(
            [
                record("alicloud:ecs/instance:Instance", spotStrategy="NoSpot"),
                record("huaweicloud:Ecs/instance:Instance", chargingMode="postPaid"),
                record("tencentcloud:Instance/instance:Instance", instanceChargeType="POSTPAID_BY_HOUR"),
                record("pulumi-python:dynamic/baiducloud:BccInstance"),
            ]
        )
        == []
    )


def test_budget():
    assert budget(10.0, None) == budget(10.0, 10.0) == []
    (violation,) = budget(12.5, 10.0)
    assert violation.rule == "budget" and "$12.50/hour" in violation.message and "$10.00/hour" in violation.message


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, False), ("", False), ("true", True), ("True", True), ("yes", True), ("1", True), (True, True)]
    + [("false", False), ("off", False), ("0", False), (False, False)],
)
def test_refuse_oversized_reads_pulumi_config_booleans(value, expected):
    from policies.stack_rules import refuse_oversized

    assert refuse_oversized(value) is expected


@pytest.mark.parametrize("value", ["maybe", "2", "ture", "[true]"])
def test_a_refuse_oversized_typo_is_one_line_not_off(value):
    from policies.stack_rules import refuse_oversized

    with pytest.raises(ValueError, match=rf"^trainstack:refuse_oversized: '{re.escape(value)}' is not true or false; "):
        refuse_oversized(value)


def test_the_budget_rule_refuses_a_size_warning_only_when_the_stack_asks():
    nodes = "warning: nodes: 5,000 is far beyond the 64 nodes trainstack ever picks on its own; check the nodes"
    records = [record(FSX, tags=TAGS)]
    unasked = {r.rule: r for r in evaluate(records, usd_per_hour=20.0)}["budget"]
    assert unasked.status == "n/a" and unasked.violations == ()  # the warning stays a warning (plan prints it)
    asked = {r.rule: r for r in evaluate(records, usd_per_hour=20.0, oversized=[nodes])}["budget"]
    assert asked.status == "failed" and [v.message for v in asked.violations] == [
        "nodes: 5,000 is far beyond the 64 nodes trainstack ever picks on its own; check the nodes "
        "(refused: trainstack:refuse_oversized is true)"
    ]
    sane = {r.rule: r for r in evaluate(records, usd_per_hour=20.0, oversized=[])}["budget"]
    assert sane.status == "passed" and sane.not_applicable == ()  # the sizes were checked, with no budget set
    both = {r.rule: r for r in evaluate(records, 20.0, 5.0, oversized=[nodes])}["budget"]
    assert [v.message[:12] for v in both.violations] == ["cluster cost", "nodes: 5,000"]


def test_evaluate_reports_every_rule_once():
    results = evaluate([record(FSX, tags=TAGS)], usd_per_hour=20.0, max_usd_per_hour=5.0)
    assert [r.rule for r in results if not r.passed] == ["stateful-protected", "budget"]
    assert len({r.rule for r in results}) == len(results) == 10


@pytest.mark.parametrize(
    "source", ["0.0.0.0/0", "1.2.3.4/0", "0.0.0.0/1", "128.0.0.0/1", "10.0.0.0/7", "::/0", "2001::/8", "Internet"]
)
def test_wide_sources_count_as_the_internet(source):
    from clouds.policy import is_world

    assert is_world(source)


@pytest.mark.parametrize("source", ["1.2.3.4/0", "0.0.0.0/1", "128.0.0.0/1"])
def test_ssh_from_the_internet_written_differently_is_caught(source):
    from policies.rules import admin_ports_open

    rule = {
        "type": "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
        "name": "r",
        "inputs": {"cidrIpv4": source, "ipProtocol": "tcp", "fromPort": 22, "toPort": 22},
    }
    assert admin_ports_open(rule)


@pytest.mark.parametrize("source", ["10.0.0.0/8", "203.0.113.0/24", "198.51.100.7/32", "not-a-cidr", ""])
def test_narrow_sources_are_not_the_internet(source):
    from clouds.policy import is_world

    assert not is_world(source)


@pytest.mark.parametrize(
    ("props", "open_"),
    [
        pytest.param({"enableNodePublicIp": False, "remoteLoginPortPublicAccess": "Enabled"}, False, id="no-public-ip"),
        pytest.param({"enableNodePublicIp": True, "remoteLoginPortPublicAccess": "Disabled"}, False, id="login-off"),
        pytest.param({"remoteLoginPortPublicAccess": "Enabled"}, True, id="defaults-public-ip-login-on"),
        pytest.param({"userAccountCredentials": {"adminUserName": "a"}}, True, id="not-specified-with-credentials"),
        pytest.param({}, False, id="not-specified-no-credentials"),
    ],
)
def test_aml_compute_ssh_from_the_internet(props, open_):
    """AmlCompute: `enableNodePublicIp` defaults to true; `remoteLoginPortPublicAccess`
    NotSpecified opens SSH when admin credentials are given (AmlComputeProperties reference)."""
    from policies.rules import admin_ports_open

    record = {
        "type": "azure-native:machinelearningservices:Compute",
        "name": "pool",
        "inputs": {
            "properties": {"computeType": "AmlCompute", "properties": {"vmSize": "Standard_ND96asr_v4", **props}}
        },
    }
    assert bool(admin_ports_open(record)) is open_


def hyperpod(*types, groups=("c-sg-id",)):
    request = {
        "InstanceGroups": [{"InstanceGroupName": f"g{i}", "InstanceType": t} for i, t in enumerate(types)],
        "VpcConfig": {"SecurityGroupIds": list(groups), "Subnets": ["subnet-1"]},
    }
    return record("pulumi-python:dynamic/aws:HyperPodCluster", request=request, tags=TAGS)


def test_a_hyperpod_cluster_of_efa_types_needs_the_self_rules_on_its_vpc_groups():
    # HyperPod attaches the EFA interfaces itself, in the cluster's VpcConfig security groups
    cluster = hyperpod("ml.m5.xlarge", "ml.p5.48xlarge")
    assert efa_self_rule([cluster, self_rule(INGRESS), self_rule(EGRESS)]) == []
    missing = efa_self_rule([cluster, self_rule(INGRESS)])
    assert [v.message for v in missing if "egress" in v.message] and "c-sg-id" in missing[0].message
    found = {r.rule: r.status for r in evaluate([cluster])}
    assert found["efa-security-group-self-rule"] == "failed"
    # no EFA-capable type (a CPU controller, g5 workers): the rule checks nothing there
    for types in (("ml.m5.xlarge",), ("ml.m5.xlarge", "ml.g5.2xlarge")):
        assert {r.rule: r.status for r in evaluate([hyperpod(*types)])}["efa-security-group-self-rule"] == "n/a"
