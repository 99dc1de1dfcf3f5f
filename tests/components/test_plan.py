"""`run_plan`: the real `__main__.py` under mocks, from a stack file written to tmp_path."""

import shutil
from pathlib import Path

import pytest
import yaml

from clouds.contract import OUTPUT_NAMES
from profiles.catalog.loader import load_catalog
from profiles.cost.pricing import storage_usd
from tests.cases import cases
from tests.clusters import BASE_CLUSTER
from tests.shared_runs import afresh
from trainstack.plan.runner import PlanError, run_plan

MAIN = Path(__file__).resolve().parents[2] / "__main__.py"
FSX = "aws:fsx/lustreFileSystem:LustreFileSystem"
INSTANCE = "aws:ec2/instance:Instance"
UNTAGGED = {
    "trainstack:aws:GpuCluster",
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
    "aws:ec2/routeTableAssociation:RouteTableAssociation",  # takes no tags
}


def write_stack(project: Path, stack: str, **overrides) -> Path:
    """Copy the real program into `project` and write `stacks/Pulumi.<stack>.yaml`."""
    if not (project / "__main__.py").exists():
        shutil.copy(MAIN, project / "__main__.py")
    cluster = {**BASE_CLUSTER, **overrides}
    stack_file = project / "stacks" / f"Pulumi.{stack}.yaml"
    stack_file.parent.mkdir(exist_ok=True)
    config = {"aws:region": "us-east-1", "trainstack:cluster": cluster}
    stack_file.write_text(yaml.safe_dump({"config": config}))
    return stack_file


def by_type(plan, type_):
    return [r for r in plan.resources if r["type"] == type_]


def test_two_node_p4d_resource_tree(tmp_path):
    write_stack(tmp_path, "dev")
    plan = run_plan("dev", tmp_path)

    component = [r for r in plan.resources if r["parent"] is None]
    assert [(r["type"], r["name"]) for r in component] == [("trainstack:aws:GpuCluster", "dev")]
    children = [r for r in plan.resources if r["parent"] is not None]
    assert {r["parent"] for r in children} == {"dev"}
    assert sorted({r["type"] for r in children}) == [
        "aws:autoscaling/group:Group",
        "aws:ec2/eip:Eip",
        "aws:ec2/internetGateway:InternetGateway",
        "aws:ec2/launchTemplate:LaunchTemplate",
        "aws:ec2/natGateway:NatGateway",
        "aws:ec2/placementGroup:PlacementGroup",
        "aws:ec2/routeTable:RouteTable",
        "aws:ec2/routeTableAssociation:RouteTableAssociation",
        "aws:ec2/securityGroup:SecurityGroup",
        "aws:ec2/subnet:Subnet",
        "aws:ec2/vpc:Vpc",
        "aws:ec2/vpcEndpoint:VpcEndpoint",
        FSX,
        "aws:iam/instanceProfile:InstanceProfile",
        "aws:iam/role:Role",
        "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
        "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule",
        "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
    ]
    assert by_type(plan, INSTANCE) == []  # the nodes are the group's
    group = by_type(plan, "aws:autoscaling/group:Group")[0]
    assert (group["name"], group["inputs"]["desiredCapacity"], group["inputs"]["placementGroup"]) == (
        "dev-nodes",
        2,
        "dev-pg",
    )
    assert len(by_type(plan, "aws:iam/rolePolicyAttachment:RolePolicyAttachment")) == 1
    assert len(by_type(plan, "aws:ec2/launchTemplate:LaunchTemplate")[0]["inputs"]["networkInterfaces"]) == 4
    assert by_type(plan, "aws:ec2/subnet:Subnet")[0]["inputs"]["availabilityZoneId"] == "use1-az4"


def test_nodes_reach_out_through_nat_only(tmp_path):
    write_stack(tmp_path, "dev")
    plan = run_plan("dev", tmp_path)
    routes = {r["name"]: r["inputs"]["routes"] for r in by_type(plan, "aws:ec2/routeTable:RouteTable")}
    assert routes == {
        "dev-public-rt": [{"cidrBlock": "0.0.0.0/0", "gatewayId": "dev-igw-id"}],
        "dev-private-rt": [{"cidrBlock": "0.0.0.0/0", "natGatewayId": "dev-nat-id"}],
    }
    associations = {
        r["inputs"]["subnetId"]: r["inputs"]["routeTableId"]
        for r in by_type(plan, "aws:ec2/routeTableAssociation:RouteTableAssociation")
    }
    assert associations == {"dev-subnet-id": "dev-private-rt-id", "dev-public-id": "dev-public-rt-id"}
    (nat,) = by_type(plan, "aws:ec2/natGateway:NatGateway")
    assert nat["inputs"]["subnetId"] == "dev-public-id"
    subnets = {r["name"]: r["inputs"] for r in by_type(plan, "aws:ec2/subnet:Subnet")}
    assert subnets["dev-public"]["mapPublicIpOnLaunch"] is False
    assert subnets["dev-public"]["availabilityZoneId"] == "use1-az4"
    (endpoint,) = by_type(plan, "aws:ec2/vpcEndpoint:VpcEndpoint")
    assert endpoint["inputs"]["serviceName"] == "com.amazonaws.us-east-1.s3"
    assert endpoint["inputs"]["routeTableIds"] == ["dev-private-rt-id"]


def test_existing_subnet_gets_no_new_network(tmp_path):
    write_stack(tmp_path, "dev", subnet_id="subnet-0abc")
    plan = run_plan("dev", tmp_path)
    created = {r["type"] for r in plan.resources}
    assert not created & {
        "aws:ec2/vpc:Vpc",
        "aws:ec2/subnet:Subnet",
        "aws:ec2/natGateway:NatGateway",
        "aws:ec2/internetGateway:InternetGateway",
    }
    (fsx,) = by_type(plan, FSX)
    assert fsx["inputs"]["subnetIds"] == "subnet-0abc"  # pulumi-aws v7: one subnet id


@pytest.mark.parametrize(
    ("overrides", "efa"),
    [
        # the clients mount over TCP (no EFA LNet setup), so FSx is not created with EFA
        pytest.param({}, False, id="p4d-clients-over-tcp"),
        pytest.param({"interconnect": "none"}, False, id="no-efa-clients"),
    ],
)
def test_file_system_is_lustre_2_15_with_metadata_configuration_from_the_start(tmp_path, overrides, efa):
    write_stack(tmp_path, "dev", **overrides)
    (fsx,) = by_type(run_plan("dev", tmp_path), FSX)
    inputs = fsx["inputs"]
    assert (inputs["deploymentType"], inputs["fileSystemTypeVersion"]) == ("PERSISTENT_2", "2.15")
    assert inputs["metadataConfiguration"] == {"mode": "AUTOMATIC"}
    assert inputs["efaEnabled"] is efa


@pytest.mark.parametrize(("overrides", "message"), cases("aws_subnet_refusals.yaml", "overrides", "message"))
def test_a_subnet_too_small_for_the_nodes_is_refused(tmp_path, overrides, message):
    write_stack(tmp_path, "dev", **overrides)
    with pytest.raises(PlanError, match=message):
        run_plan("dev", tmp_path)


def test_an_existing_subnet_in_another_zone_is_refused(tmp_path, monkeypatch):
    from trainstack.plan.mocks import TrainstackMocks

    original = TrainstackMocks.call

    def elsewhere(self, args):
        answer, failures = original(self, args)
        moved = {**answer, "availabilityZoneId": "use1-az1"} if args.token.endswith("getSubnet") else answer
        return moved, failures

    monkeypatch.setattr(TrainstackMocks, "call", elsewhere)
    write_stack(tmp_path, "dev", subnet_id="subnet-0abc")
    with pytest.raises(PlanError, match=r"subnet_id: subnet-0abc is in zone use1-az1, not the cluster's zone"):
        run_plan("dev", tmp_path)


def test_only_file_system_is_protected(tmp_path):
    write_stack(tmp_path, "dev")
    plan = run_plan("dev", tmp_path)

    assert [r["name"] for r in plan.resources if r["protect"]] == ["dev-fsx"]
    fsx = by_type(plan, FSX)[0]["inputs"]
    assert (fsx["storageCapacity"], fsx["perUnitStorageThroughput"], fsx["storageType"]) == (4800, 250, "SSD")


def test_every_taggable_resource_is_tagged(tmp_path):
    write_stack(tmp_path, "dev", tags={"team": "ml"})
    plan = run_plan("dev", tmp_path)

    expected = {"trainstack:cluster": "dev", "trainstack:provider": "aws", "team": "ml"}
    for resource in plan.resources:
        if resource["type"] not in UNTAGGED:
            tags = resource["inputs"]["tags"]
            if isinstance(tags, list):  # the Auto Scaling group: [{key, value, propagateAtLaunch}]
                assert all(t["propagateAtLaunch"] for t in tags), resource["name"]
                tags = {t["key"]: t["value"] for t in tags}
            assert tags == expected, resource["name"]


def test_outputs_and_cost(tmp_path):
    write_stack(tmp_path, "dev", zone="use1-az1", instance_type="p5.48xlarge", accelerator="H100")
    plan = run_plan("dev", tmp_path)

    assert tuple(plan.outputs) == OUTPUT_NAMES
    assert plan.outputs["node_ids"] == ["dev-nodes"]
    assert plan.outputs["placement_group"] == "dev-pg"
    assert plan.outputs["file_system_dns"] == "dev-fsx-id.fsx.us-east-1.amazonaws.com"
    # The catalog lists p5.48xlarge in use1-az1 without a spot price, so the recorded $20.50/hour stands; the job adds
    # 4,800 GiB of FSx (PERSISTENT_2, 250 MB/s/TiB) for the 72 h.
    assert (plan.usd_compute_per_hour, plan.recorded_usd_per_hour) == (20.5, 20.5)
    assert plan.usd_storage == pytest.approx(storage_usd("aws", 4800, 250, 72))
    assert plan.usd_total == pytest.approx(20.5 * 72 + plan.usd_storage)
    # the hourly figure has the file system in it: 4,800 GiB x 1.0737 GB/GiB x $0.145 x 3.71/2.48
    # per GB-month (F5, FJ1) / 730 h = $1.5315/hour
    assert plan.usd_per_hour == pytest.approx(20.5 + 1.53147, abs=1e-5)
    assert plan.cost_text == (
        "$22.0315/hour = compute $20.5000 + file system $1.5315",
        "$1,586.27 per job (72 h) = $1,476.00 compute + $110.27 file system",
    )
    assert plan.price_note.startswith("price unknown (catalog ")
    assert "lists p5.48xlarge in use1-az1 but has no spot price for it" in plan.price_note


def test_hand_edited_stack_is_priced_from_the_catalog(tmp_path):
    write_stack(tmp_path, "dev", zone="use1-az6", nodes=3)
    plan = run_plan("dev", tmp_path)
    p4d = next(
        o
        for o in load_catalog(providers=("aws",)).offerings
        if (o.instance_type, o.zone) == ("p4d.24xlarge", "use1-az6")
    )
    assert plan.usd_compute_per_hour == pytest.approx(3 * p4d.spot_usd_per_hour)
    assert plan.recorded_usd_per_hour == 20.5
    assert plan.price_note.startswith("the stack records $20.50/hour, but 3 x p4d.24xlarge spot costs")


def test_deterministic_across_runs(tmp_path):
    """A real run equals the session's first plan of the stack (made earlier, in another state
    of the process; run alone, this test's own first run)."""
    write_stack(tmp_path, "dev")
    first = run_plan("dev", tmp_path)
    with afresh():  # a real run, never one answered from the first
        assert run_plan("dev", tmp_path) == first


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"nodes": 8}, id="nodes"),
        pytest.param({"instance_type": "p5.48xlarge", "accelerator": "H100"}, id="instance-type"),
        pytest.param({"purchase": "on-demand"}, id="purchase"),
    ],
)
def test_file_system_unchanged_when_compute_changes(tmp_path, change):
    write_stack(tmp_path, "dev")
    before = by_type(run_plan("dev", tmp_path), FSX)
    write_stack(tmp_path, "dev", **change)
    after = by_type(run_plan("dev", tmp_path), FSX)

    # Same type, name and parent chain means the same URN; same inputs means no diff.
    assert len(before) == 1
    assert after == before


def test_missing_stack_file(tmp_path):
    with pytest.raises(
        PlanError,
        match=r"Pulumi\.nope\.yaml: stack file not found; `trainstack resolve WORKLOAD --write-stack nope` writes it$",
    ):
        run_plan("nope", tmp_path)


def test_invalid_config_names_the_field(tmp_path):
    write_stack(tmp_path, "dev", nodes=0)
    with pytest.raises(PlanError) as err:
        run_plan("dev", tmp_path)
    assert "trainstack:cluster.nodes:" in str(err.value) and "\n" not in str(err.value)


def test_component_rejection_becomes_plan_error(tmp_path):
    write_stack(tmp_path, "dev", instance_type="g5.xlarge", accelerator="A10G", accelerator_count=1)
    with pytest.raises(PlanError, match="interconnect: rdma needs EFA"):
        run_plan("dev", tmp_path)


def test_a_newer_ami_does_not_touch_the_launch_template(tmp_path):
    """The template ignores later AMI lookups, so a new DLAMI never replaces running nodes."""
    write_stack(tmp_path, "dev")
    ignored = {r["name"]: r["ignore_changes"] for r in run_plan("dev", tmp_path).resources}  # as registered
    assert ignored["dev-lt"] == ["imageId"]
    # Lustre version, metadata configuration and EFA are fixed at creation: an older file
    # system keeps its own values rather than being replaced to gain the new defaults.
    assert ignored["dev-fsx"] == sorted(["fileSystemTypeVersion", "metadataConfiguration", "efaEnabled"])
