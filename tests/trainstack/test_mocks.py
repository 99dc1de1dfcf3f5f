"""The mocks refuse what they cannot answer and answer from the stack's own inputs."""

import contextlib
from pathlib import Path

import pytest
from pulumi.runtime.mocks import MockCallArgs

from clouds.aws.mock import EXISTING_SUBNET_CIDR
from tests.components.test_data_safety import write_stack
from trainstack.plan.mocks import TrainstackMocks
from trainstack.plan.runner import PlanError, run_plan

UNMOCKED = """import pulumi
import pulumi_aws as aws

pulumi.export("vpc", aws.ec2.get_vpc_output(default=True).id)
"""

ONE_COMPONENT = """import pulumi

pulumi.ComponentResource("trainstack:test:Empty", "empty").register_outputs({})
"""


def call(mocks, token, **args):
    return mocks.call(MockCallArgs(token=token, args=args, provider=""))


def test_an_unmocked_invoke_fails_the_plan_naming_its_token(tmp_path: Path):
    write_stack(tmp_path, "training-a100")
    (tmp_path / "__main__.py").write_text(UNMOCKED)
    with pytest.raises(PlanError, match=r"aws:ec2/getVpc:getVpc.*no mocked answer") as error:
        run_plan("training-a100", tmp_path)
    assert "\n" not in str(error.value)


def test_an_unmocked_invoke_is_a_failure_not_an_empty_answer():
    answer, failures = call(TrainstackMocks(), "gcp:compute/getNetwork:getNetwork", name="x")
    assert answer == {}
    assert failures[0][0] == "gcp:compute/getNetwork:getNetwork"


@pytest.mark.parametrize("zone", ["apse2-az2", "use1-az6"])
def test_the_subnet_lookup_answers_the_stack_zone_and_the_asked_id(zone):
    answer, failures = call(TrainstackMocks("ap-southeast-2", zone), "aws:ec2/getSubnet:getSubnet", id="subnet-0abc")
    assert failures == []
    assert (answer["id"], answer["availabilityZoneId"], answer["cidrBlock"]) == (
        "subnet-0abc",
        zone,
        EXISTING_SUBNET_CIDR,
    )


def test_the_chinese_subnet_lookups_answer_the_asked_ids_and_zone():
    mocks = TrainstackMocks("cn-beijing", "cn-beijing-a")
    huawei, _ = call(mocks, "huaweicloud:Vpc/getSubnet:getSubnet", id="sub-1")
    assert (huawei["id"], huawei["availabilityZone"]) == ("sub-1", "cn-beijing-a")
    volc, _ = call(mocks, "volcengine:vpc/getSubnets:getSubnets", ids=["subnet-a", "subnet-b"])
    assert [(s["id"], s["zoneId"]) for s in volc["subnets"]] == [
        ("subnet-a", "cn-beijing-a"),
        ("subnet-b", "cn-beijing-a"),
    ]


@pytest.mark.parametrize(
    ("region", "partition"), [("us-east-1", "aws"), ("cn-north-1", "aws-cn"), ("us-gov-west-1", "aws-us-gov")]
)
def test_region_and_partition_follow_the_stack_region(region, partition):
    mocks = TrainstackMocks(region)
    assert call(mocks, "aws:index/getRegion:getRegion")[0]["name"] == region
    assert call(mocks, "aws:index/getPartition:getPartition")[0]["partition"] == partition


def test_the_ami_lookup_answers_the_architecture_asked_for():
    answer, _ = call(
        TrainstackMocks(), "aws:ec2/getAmi:getAmi", filters=[{"name": "architecture", "values": ["arm64"]}]
    )
    assert answer["architecture"] == "arm64"


def test_the_plan_mocks_follow_the_stack_zone(tmp_path: Path, monkeypatch):
    seen = []
    original = TrainstackMocks.__init__

    def spy(self, region="us-east-1", zone=None, config=None):
        seen.append((region, zone))
        original(self, region, zone, config)

    monkeypatch.setattr(TrainstackMocks, "__init__", spy)
    # the committed stack is in eu-north-1 (eun1-az3): moved to us-east-1's use1-az2
    write_stack(tmp_path, "training-a100", config={"aws:region": "us-east-1"}, region="us-east-1", zone="use1-az2")
    run_plan("training-a100", tmp_path)
    assert seen == [("us-east-1", "use1-az2")]


def test_no_source_positions_skips_the_sdks_stack_trace_and_puts_it_back(monkeypatch):
    """While a plan runs, the SDK's per-resource stack trace is an empty one (no mock reads it);
    afterwards, and after a failure inside, the SDK's own function is back. (The whole test
    session runs inside it too: tests/conftest.py.)"""
    from pulumi.runtime import resource as sdk_resource

    from trainstack.plan.recording import no_source_positions

    def sdk_own():  # stands in for the SDK's function, which the session has already replaced
        raise AssertionError("the SDK's stack trace was taken")

    monkeypatch.setattr(sdk_resource, "_get_stack_trace", sdk_own)
    with pytest.raises(RuntimeError), no_source_positions():
        assert list(sdk_resource._get_stack_trace().frames) == []
        raise RuntimeError("a failing plan")
    assert sdk_resource._get_stack_trace is sdk_own


def test_a_plan_takes_no_stack_trace_per_resource(tmp_path: Path, monkeypatch):
    """`run_plan` registers resources without the SDK's stack trace (`no_source_positions`)."""
    from pulumi.runtime import resource as sdk_resource

    def sdk_own():
        raise AssertionError("the SDK's stack trace was taken")

    monkeypatch.setattr(sdk_resource, "_get_stack_trace", sdk_own)
    write_stack(tmp_path, "training-a100")
    (tmp_path / "__main__.py").write_text(ONE_COMPONENT)
    planned = run_plan("training-a100", tmp_path)
    assert [(r["type"], r["name"]) for r in planned.resources] == [("trainstack:test:Empty", "empty")]
    assert sdk_resource._get_stack_trace is sdk_own


RENAMED = """import pulumi

old = pulumi.ResourceOptions(aliases=[pulumi.Alias(name="old")])
parent = pulumi.ComponentResource("trainstack:test:Cluster", "new", opts=old)
part = pulumi.ResourceOptions(parent=parent, aliases=[pulumi.Alias(type_="trainstack:test:OldPart")])
pulumi.ComponentResource("trainstack:test:Part", "new-part", opts=part).register_outputs({})
parent.register_outputs({})
"""


def _alias_specs_and_derived_urns(tmp_path: Path, monkeypatch, skipping: bool) -> tuple[dict, list, int]:
    """Plan RENAMED; the alias specs each resource was registered with, the records, and how
    many alias URNs the SDK's own function derived."""
    from google.protobuf.json_format import MessageToDict
    from pulumi import resource as sdk_resources
    from pulumi.runtime.resource import collapse_alias_to_urn as sdk_own

    from trainstack.plan import runner
    from trainstack.plan.recording import RecordingMonitor, no_alias_urns

    derived: list[str] = []
    sent: dict[str, list] = {}

    def counted(*args):
        derived.append(args[1])
        return sdk_own(*args)

    class Spy(RecordingMonitor):
        def RegisterResource(self, request):  # noqa: N802 (gRPC method name)
            sent[request.name] = [MessageToDict(alias) for alias in request.aliases]
            return super().RegisterResource(request)

    monkeypatch.setattr(sdk_resources, "collapse_alias_to_urn", counted)  # the SDK's, counted
    monkeypatch.setattr(runner, "RecordingMonitor", Spy)
    monkeypatch.setattr(runner, "no_alias_urns", no_alias_urns if skipping else contextlib.nullcontext)
    write_stack(tmp_path, "training-a100")
    (tmp_path / "__main__.py").write_text(RENAMED)
    return sent, run_plan("training-a100", tmp_path).resources, len(derived)


def test_a_plan_sends_the_same_alias_specs_without_deriving_their_urns(tmp_path: Path, monkeypatch):
    """`no_alias_urns`: the mock monitor takes alias specs, so the URNs the SDK derives for each
    alias at construction are never read; a plan skips them and registers exactly the same."""
    sent, records, derived = _alias_specs_and_derived_urns(tmp_path, monkeypatch, skipping=False)
    assert derived == 2  # the SDK's own: one URN per alias
    assert sent["new"] == [{"spec": {"name": "old", "parentUrn": ""}}]
    assert [alias["spec"]["type"] for alias in sent["new-part"]] == ["trainstack:test:OldPart"]
    assert {r["name"]: r["aliases"] for r in records} == {"new": ["old"], "new-part": ["old-part"]}
    assert _alias_specs_and_derived_urns(tmp_path, monkeypatch, skipping=True) == (sent, records, 0)


def test_without_alias_specs_the_sdk_derives_the_urns_and_its_function_is_put_back(mocks, monkeypatch):
    from pulumi import resource as sdk_resources
    from pulumi.runtime import settings

    from trainstack.plan.recording import no_alias_urns

    def sdk_own(alias, name, type_, parent):  # stands in for the SDK's, which the session has replaced
        return f"urn of {name}"

    monkeypatch.setattr(sdk_resources, "collapse_alias_to_urn", sdk_own)
    with pytest.raises(RuntimeError), no_alias_urns():
        assert sdk_resources.collapse_alias_to_urn("alias", "a", "t", None) == "alias"  # mocks: specs
        monkeypatch.setattr(settings, "monitor_supports_feature", lambda feature: False)
        assert sdk_resources.collapse_alias_to_urn("alias", "a", "t", None) == "urn of a"
        raise RuntimeError("a failing plan")
    assert sdk_resources.collapse_alias_to_urn is sdk_own
