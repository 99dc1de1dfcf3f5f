"""`HyperPodPool` under Pulumi mocks: the CreateCluster request it hands the HyperPod provider
(instance groups, NodeRecovery, deep health checks, the FSx mount, the VPC config, as the SageMaker
API reference's CreateCluster lists them), the protected bucket and file system, the scoped
execution role, and the policy pack's rules over everything it registers."""

from __future__ import annotations

import json
import subprocess

import pytest

from clouds.aws import hyperpod as hp
from clouds.aws.mock import ACCOUNT_ID
from components.aws.hyperpod import TYPE_TOKEN, HyperPodPool
from policies.rules import check_resource, wildcard_permissions
from tests.clusters import example_config
from tests.components.harness import build_plan, one

NAMES = ("node_ids", "cluster_name", "bucket_name", "role_arn", "file_system_dns")
CLUSTER = "pulumi-python:dynamic/aws:HyperPodCluster"
BUCKET = f"sagemaker-c-{ACCOUNT_ID}"


def _config(**changes):
    return example_config("aws", **{"platform": "hyperpod", "purchase": "on-demand", **changes})


def _pool(**changes):
    return build_plan(HyperPodPool, _config(**changes), NAMES)


def _request(plan):
    return one(plan.records, CLUSTER)["inputs"]["request"]


def test_the_cluster_request_has_a_controller_and_the_stacks_workers():
    plan = _pool()
    request = _request(plan)
    controller, workers = request["InstanceGroups"]
    assert (controller["InstanceGroupName"], controller["InstanceType"], controller["InstanceCount"]) == (
        "controller",
        "ml.m5.xlarge",
        1,
    )
    assert controller["SlurmConfig"] == {"NodeType": "Controller"} and "OnStartDeepHealthChecks" not in controller
    assert (workers["InstanceGroupName"], workers["InstanceType"], workers["InstanceCount"]) == (
        "workers-p4d-24xlarge",
        "ml.p4d.24xlarge",
        2,
    )
    assert workers["SlurmConfig"] == {"NodeType": "Compute", "PartitionNames": ["train"]}
    assert workers["OnStartDeepHealthChecks"] == ["InstanceStress", "InstanceConnectivity"]  # EFA stack
    assert request["NodeRecovery"] == "Automatic"
    assert request["Orchestrator"] == {"Slurm": {"SlurmConfigStrategy": "Managed"}}
    assert request["VpcConfig"] == {"SecurityGroupIds": ["c-sg-id"], "Subnets": ["c-subnet-id"]}
    for group in (controller, workers):
        assert group["LifeCycleConfig"] == {"SourceS3Uri": f"s3://{BUCKET}/lifecycle/", "OnCreate": "on_create.sh"}
        assert group["ExecutionRole"].endswith("c-hyperpod-role")
        (storage,) = group["InstanceStorageConfigs"]
        assert storage["FsxLustreConfig"]["MountPath"] == "/fsx"
        assert storage["FsxLustreConfig"]["DnsName"] == plan.outputs["file_system_dns"]
    assert plan.outputs["node_ids"] == ["c"] and plan.outputs["cluster_name"] == "c"


def test_no_file_system_no_mount_and_one_health_check_without_efa():
    request = _request(_pool(file_system=None, interconnect="none", instance_type="g5.48xlarge", nodes=1))
    workers = request["InstanceGroups"][1]
    assert "InstanceStorageConfigs" not in workers
    assert workers["OnStartDeepHealthChecks"] == ["InstanceStress"]
    assert workers["InstanceType"] == "ml.g5.48xlarge"


def test_stateful_children_protected_and_kept_when_nodes_or_type_change():
    plan = _pool()
    assert one(plan.records, "aws:s3/bucket:Bucket")["protect"] is True
    assert one(plan.records, "aws:fsx/lustreFileSystem:LustreFileSystem")["protect"] is True
    other = _pool(nodes=4, instance_type="p5.48xlarge")
    for kind in ("aws:s3/bucket:Bucket", "aws:fsx/lustreFileSystem:LustreFileSystem"):
        assert one(plan.records, kind)["inputs"] == one(other.records, kind)["inputs"]
    assert _request(other)["InstanceGroups"][1]["InstanceGroupName"] == "workers-p5-48xlarge"


def test_role_is_scoped_to_the_pool_bucket_and_the_policy_pack_passes():
    plan = _pool(file_system=None, data={"source": "s3://team-data/corpus/"})
    role = one(plan.records, "aws:iam/role:Role")["inputs"]
    assert role["name"] == "c-hyperpod"
    assert json.loads(role["assumeRolePolicy"])["Statement"][0]["Principal"] == {"Service": "sagemaker.amazonaws.com"}
    policy = json.loads(one(plan.records, "aws:iam/rolePolicy:RolePolicy")["inputs"]["policy"])
    by_sid = {s["Sid"]: s for s in policy["Statement"]}
    assert by_sid["LifecycleScripts"]["Resource"] == [f"arn:aws:s3:::{BUCKET}/lifecycle/*"]
    assert by_sid["DatasetRead"]["Resource"] == ["arn:aws:s3:::team-data/corpus/*"]
    assert by_sid["DatasetList"]["Condition"] == {"StringLike": {"s3:prefix": ["corpus/*"]}}
    assert not [a for s in policy["Statement"] for a in s["Action"] if "*" in a]
    problems = {r["name"]: [v.message for v in check_resource(r)] for r in plan.records}
    assert {name: found for name, found in problems.items() if found} == {}
    # the rule still refuses a network-interface action on every resource
    loose = {"Statement": [{"Effect": "Allow", "Action": ["ec2:CreateNetworkInterface"], "Resource": ["*"]}]}
    assert wildcard_permissions({"type": "aws:iam/rolePolicy:RolePolicy", "inputs": {"policy": json.dumps(loose)}})


def test_cluster_waits_for_its_role_script_and_routes_and_no_ssh_is_open():
    from tests.components.harness import run_component

    _, monitor, _ = run_component(HyperPodPool, _config(), ("node_ids",))
    after = set(monitor.depends_on["c-hyperpod"])
    assert {"c-hyperpod-access", "c-on-create", "c-private-rt", "c-sg-self-in", "c-sg-self-out"} <= after
    ingress = [r for r in monitor.records() if r["type"].endswith("SecurityGroupIngressRule")]
    assert not [r for r in ingress if r["inputs"].get("fromPort") == 22]
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in monitor.records())


def test_lifecycle_script_passes_shellcheck():
    plan = _pool()
    content = one(plan.records, "aws:s3/bucketObjectv2:BucketObjectv2")["inputs"]["content"]
    assert content == hp.lifecycle_script("c", True) and "mkdir -p /fsx/checkpoints/c" in content
    done = subprocess.run(["shellcheck", "-s", "bash", "-"], input=content, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"purchase": "spot"}, "purchase: HyperPod documents spot instance groups for EKS", id="spot"),
        pytest.param({"ssh_cidrs": ["203.0.113.7/32"]}, "ssh_cidrs: HyperPod nodes are reached through SSM", id="ssh"),
        pytest.param({"kms_key_id": "k"}, "kms_key_id: the pool encrypts", id="kms"),
        pytest.param({"fallback_types": ["p4de.24xlarge"]}, "fallback_types: a HyperPod instance group", id="fallback"),
        pytest.param({"reservation": {"kind": "capacity-reservation", "id": "cr-1"}}, "reservation: HyperPod", id="cr"),
        pytest.param({"zone": "usw2-az1"}, "zone", id="zone-outside-region"),
    ],
)
def test_refused_before_building(changes, field):
    config = _config(**changes)
    with pytest.raises(ValueError, match=field):
        HyperPodPool.__new__(HyperPodPool).check("c", config)
