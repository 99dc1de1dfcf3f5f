"""The pulumi-policy adapters, driven with constructed arguments (no engine, no CLI)."""

import contextvars
import json
from pathlib import Path

import pulumi
import pytest
from pulumi_policy import (
    PolicyCustomTimeouts,
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, unknown_checking_proxy

from policies import RULES
from policies.pack import policies, resource_validator, stack_validator, to_record, validate_budget

STACK = "urn:pulumi:dev::trainstack::pulumi:pulumi:Stack::trainstack-dev"
PARENT = "urn:pulumi:dev::trainstack::trainstack:aws:GpuCluster::c"
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "aws"}


def options(protect=False, parent=PARENT):
    return PolicyResourceOptions(protect, [], None, [], PolicyCustomTimeouts(0, 0, 0), [], parent)


def resource_args(kind, props, protect=False):
    return ResourceValidationArgs(kind, unknown_checking_proxy(props), f"{PARENT}$x::r", "r", options(protect), None)


def stack_resource(kind, name, props, deps=None):
    resource = PolicyResource(
        kind, unknown_checking_proxy(props), f"{PARENT}${kind}::{name}", name, options(), None, None, [], {}
    )
    resource.property_dependencies = deps or {}
    return resource


def reported(validate, args):
    messages = []
    validate(args, lambda message, urn=None: messages.append((message, urn)))
    return messages


def test_pack_has_one_policy_per_rule_with_the_right_kind():
    pack = {p.name: p for p in policies()}
    assert set(pack) == set(RULES)
    assert isinstance(pack["imdsv2-required"], ResourceValidationPolicy)
    assert isinstance(pack["efa-security-group-self-rule"], StackValidationPolicy)
    assert isinstance(pack["budget"], StackValidationPolicy)


def test_resource_adapter_reports_the_rule_message():
    args = resource_args("aws:ec2/launchTemplate:LaunchTemplate", {"metadataOptions": {"httpTokens": "optional"}})
    ((message, _),) = reported(resource_validator("imdsv2-required"), args)
    assert "httpTokens" in message


def test_protect_comes_from_opts():
    fsx = "aws:fsx/lustreFileSystem:LustreFileSystem"
    assert reported(resource_validator("stateful-protected"), resource_args(fsx, {"tags": TAGS}, protect=True)) == []
    assert reported(resource_validator("stateful-protected"), resource_args(fsx, {"tags": TAGS}))


def test_record_shape_parent_and_unknowns():
    props = {"tags": TAGS, "vpcId": UNKNOWN_STRING_VALUE, "routes": [{"gatewayId": UNKNOWN_STRING_VALUE}]}
    rec = to_record(resource_args("aws:ec2/routeTable:RouteTable", props))
    assert rec == {
        "type": "aws:ec2/routeTable:RouteTable",
        "name": "r",
        "parent": "c",
        "protect": False,
        "inputs": {"tags": TAGS, "vpcId": "<unknown>", "routes": [{"gatewayId": "<unknown>"}]},
    }
    at_root = ResourceValidationArgs(
        "aws:ec2/vpc:Vpc", unknown_checking_proxy({}), "u", "v", options(parent=STACK), None
    )
    assert to_record(at_root)["parent"] is None


def test_unknown_values_never_fail_a_rule():
    props = {
        "metadataOptions": {"httpTokens": UNKNOWN_STRING_VALUE},
        "tags": UNKNOWN_STRING_VALUE,
        "blockDeviceMappings": [{"ebs": {"encrypted": UNKNOWN_STRING_VALUE}}],
    }
    args = resource_args("aws:ec2/launchTemplate:LaunchTemplate", props)
    for rule in ("imdsv2-required", "cost-tags", "disks-encrypted"):
        assert reported(resource_validator(rule), args) == [], rule


def efa_preview(with_self_rules):
    """A preview before any id exists: references are unknown, with property dependencies."""
    sg = stack_resource("aws:ec2/securityGroup:SecurityGroup", "c-sg", {"tags": TAGS})
    lt = stack_resource(
        "aws:ec2/launchTemplate:LaunchTemplate",
        "c-lt",
        {"networkInterfaces": [{"interfaceType": "efa", "securityGroups": [UNKNOWN_STRING_VALUE]}]},
    )
    rules = [
        stack_resource(
            f"aws:vpc/securityGroup{kind}Rule:SecurityGroup{kind}Rule",
            f"c-sg-self-{kind}",
            {
                "ipProtocol": "-1",
                "securityGroupId": UNKNOWN_STRING_VALUE,
                "referencedSecurityGroupId": UNKNOWN_STRING_VALUE,
            },
            {"securityGroupId": [sg], "referencedSecurityGroupId": [sg]},
        )
        for kind in ("Ingress", "Egress")
    ]
    return StackValidationArgs([sg, lt, *(rules if with_self_rules else rules[:1])])


def test_stack_adapter_resolves_unknown_references_from_dependencies():
    validate = stack_validator("efa-security-group-self-rule")
    assert reported(validate, efa_preview(with_self_rules=True)) == []
    ((message, urn),) = reported(validate, efa_preview(with_self_rules=False))
    assert "egress" in message and urn is None


def run_with_config(config, fn):
    def body():
        pulumi.runtime.set_all_config(config)
        return fn()

    return contextvars.copy_context().run(body)


def _committed_cluster(name="training-a100"):
    import yaml

    root = Path(__file__).resolve().parents[2]
    return yaml.safe_load((root / "stacks" / f"Pulumi.{name}.yaml").read_text())["config"]["trainstack:cluster"]


@pytest.mark.parametrize(
    ("stack_config", "policy_config", "expected"),
    [
        # The committed training-a100 stack costs 2 x $6.1657 = $12.3314/hour of compute (p4d.24xlarge
        # spot, eun1-az3) + $1.5315/hour of FSx PERSISTENT_2 250 MB/s/TiB (4,800 GiB x 1.0737 GB/GiB x
        # $0.145 x 3.71/2.48 per GB-month (F5, FJ1) / 730 h) = $13.8629/hour.
        pytest.param({"trainstack:max_usd_per_hour": "12.34"}, {}, 1, id="compute-within-but-file-system-over"),
        pytest.param({"trainstack:max_usd_per_hour": "13.87"}, {}, 0, id="stack-budget-met"),
        pytest.param({}, {"max_usd_per_hour": 12.3}, 1, id="policy-config-budget"),
        pytest.param({}, {}, 0, id="no-budget"),
    ],
)
def test_budget_policy_reads_stack_and_policy_config(stack_config, policy_config, expected):
    cluster = _committed_cluster()
    config = {"trainstack:cluster": json.dumps(cluster), **stack_config}
    args = StackValidationArgs([], policy_config)
    messages = run_with_config(config, lambda: reported(validate_budget, args))
    assert len(messages) == expected
    assert all(
        m.startswith("cluster costs $13.86/hour (compute, file system and bucket requests; ") for m, _ in messages
    )


@pytest.mark.parametrize("value", ["abc", "50 USD", "[50]", "-1", "0"])
def test_a_budget_that_cannot_be_read_is_a_violation_not_no_budget(value):
    config = {"trainstack:cluster": json.dumps(_committed_cluster()), "trainstack:max_usd_per_hour": value}
    ((message, _),) = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], {})))
    assert message.startswith(f"trainstack:max_usd_per_hour: '{value}' is not a positive number of USD/hour")


def test_a_typed_price_on_a_stack_the_catalog_cannot_price_does_not_pass_the_budget():
    cluster = {**_committed_cluster("training-a100-huaweicloud"), "usd_per_hour": 1.0}
    config = {"trainstack:cluster": json.dumps(cluster), "trainstack:max_usd_per_hour": "50"}
    ((message, _),) = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], {})))
    assert message.startswith("the cluster's price is unknown")


def test_budget_policy_prices_the_cluster_from_the_catalog_not_the_typed_price():
    import yaml

    root = Path(__file__).resolve().parents[2]
    cluster = yaml.safe_load((root / "stacks" / "Pulumi.training-a100.yaml").read_text())["config"][
        "trainstack:cluster"
    ]
    edited = {**cluster, "usd_per_hour": 1.0}  # typed by hand; the catalog says $12.33/hour (+ $1.53 FSx)
    config = {"trainstack:cluster": json.dumps(edited), "trainstack:max_usd_per_hour": "4"}
    ((message, urn),) = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], {})))
    assert cluster["usd_per_hour"] == pytest.approx(2 * 6.1657)
    assert message.startswith("cluster costs $13.86/hour (compute, file system and bucket requests; not the small ")
    assert "a job's head node, which no price counts" in message
    assert urn is None


def test_budget_policy_fails_closed_on_an_unpriced_stack():
    import yaml

    root = Path(__file__).resolve().parents[2]
    stack = root / "stacks" / "Pulumi.training-a100-huaweicloud.yaml"
    cluster = yaml.safe_load(stack.read_text())["config"]["trainstack:cluster"]
    config = {"trainstack:cluster": json.dumps(cluster), "trainstack:max_usd_per_hour": "50"}
    ((message, _),) = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], {})))
    assert message.startswith("the cluster's price is unknown")


@pytest.mark.parametrize(
    ("stack_config", "policy_config", "expected"),
    [
        pytest.param({"trainstack:refuse_oversized": "true"}, {}, 1, id="the-stack-asks"),
        pytest.param({}, {"refuse_oversized": True}, 1, id="the-policy-config-asks"),
        pytest.param({"trainstack:refuse_oversized": "true"}, {"refuse_oversized": False}, 0, id="policy-config-wins"),
        pytest.param({}, {}, 0, id="unasked-a-warning-stays-a-warning"),
    ],
)
def test_budget_policy_refuses_a_fat_fingered_node_count_when_asked(stack_config, policy_config, expected):
    cluster = {**_committed_cluster(), "nodes": 5000}  # 5,000 x p4d.24xlarge spot, priced from the catalog
    config = {"trainstack:cluster": json.dumps(cluster), **stack_config}
    messages = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], policy_config)))
    assert len(messages) == expected
    for message, urn in messages:
        assert message.startswith(
            "nodes: 5,000 is far beyond the 64 nodes trainstack ever picks on its own ($30,828/hour for the nodes)"
        )  # 5,000 x $6.1657
        assert message.endswith("(refused: trainstack:refuse_oversized is true)") and urn is None


def test_budget_policy_refuses_a_file_system_dearer_than_its_gpus_and_passes_the_committed_stack():
    fat = {**_committed_cluster(), "file_system": {**_committed_cluster()["file_system"], "capacity_gib": 9536743}}
    asked = {"trainstack:refuse_oversized": "yes"}
    for cluster, expected in ((fat, 1), (_committed_cluster(), 0)):
        config = {"trainstack:cluster": json.dumps(cluster), **asked}
        messages = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], {})))
        assert len(messages) == expected
        assert all(m.startswith("file_system: 9,536,743 GiB costs $") for m, _ in messages)


def test_a_refuse_oversized_typo_is_a_violation_not_off():
    config = {"trainstack:cluster": json.dumps(_committed_cluster()), "trainstack:refuse_oversized": "ture"}
    ((message, _),) = run_with_config(config, lambda: reported(validate_budget, StackValidationArgs([], {})))
    assert (
        message
        == "trainstack:refuse_oversized: 'ture' is not true or false; write e.g. `trainstack:refuse_oversized: true`"
    )
