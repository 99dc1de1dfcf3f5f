"""One contract, every provider: every committed stack planned under mocks through the real
`__main__.py`.

The committed example stacks (AWS, Azure, GCP GPUs, GCP TPU, and one per Chinese cloud) must
all satisfy the same rules: the component's type token, every child parented to the
component, cost tags/labels on everything that takes them, the common output names, stateful
resources (file systems) protected, and no inbound rule open to the internet. Every
component but Huawei's refuses `kms_key_id` before registering anything.
"""

import re
from pathlib import Path

import pytest
import yaml

from clouds.config import parse_cluster_config
from clouds.contract import OUTPUT_NAMES
from clouds.mounts import SHARED_MOUNT
from clouds.registry import CLOUDS
from components.registry import REGISTRY, component_for
from policies.rules import STATEFUL, admin_ports_open, cost_tags
from tests.components.harness import install_mocks
from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]
CLUSTERS = {
    path.name.removeprefix("Pulumi.").removesuffix(".yaml"): yaml.safe_load(path.read_text())["config"][
        "trainstack:cluster"
    ]
    for path in sorted((ROOT / "stacks").glob("Pulumi.*.yaml"))
}
PROVIDERS = {name: cluster["provider"] for name, cluster in CLUSTERS.items()}
RULE_TYPES = {
    "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
    "azure-native:network:NetworkSecurityGroup",
    "gcp:compute/firewall:Firewall",
    "alicloud:ecs/securityGroupRule:SecurityGroupRule",
    "tencentcloud:Security/groupRuleSet:GroupRuleSet",
    "huaweicloud:Vpc/secgroupRule:SecgroupRule",
    "volcengine:vpc/securityGroupRule:SecurityGroupRule",
    "pulumi-python:dynamic/baiducloud:SecurityGroup",
    "azure-native:machinelearningservices:Compute",  # an Azure ML pool: public IP and remote login
}


def test_every_provider_has_a_committed_example_stack():
    assert set(PROVIDERS.values()) == set(REGISTRY)


# Clouds whose component encrypts with a customer KMS key id (`ClusterConfig.kms_key_id`).
TAKES_KMS_KEY_ID = {"huaweicloud"}
REFUSES_KMS_KEY_ID = sorted(stack for stack, provider in PROVIDERS.items() if provider not in TAKES_KMS_KEY_ID)


def test_every_provider_but_huawei_refuses_kms_key_id():
    assert {PROVIDERS[stack] for stack in REFUSES_KMS_KEY_ID} == set(REGISTRY) - TAKES_KMS_KEY_ID


@pytest.mark.parametrize("stack", REFUSES_KMS_KEY_ID)
def test_kms_key_id_is_refused_before_anything_is_registered(stack):
    config = parse_cluster_config({**CLUSTERS[stack], "kms_key_id": "kms-key-0001"})
    _, monitor = install_mocks(config.region)
    with pytest.raises(ValueError) as refused:
        component_for(config.provider)("c", config)
    message = str(refused.value)
    assert message.startswith("kms_key_id: not supported by the "), message
    assert message.endswith("; remove kms_key_id") and "\n" not in message, message
    assert monitor.records() == []


@pytest.fixture(scope="module", params=sorted(PROVIDERS), ids=sorted(PROVIDERS))
def plan(request):
    return request.param, run_plan(request.param, ROOT)


def component(plan_result):
    (root,) = [r for r in plan_result.resources if r["parent"] is None]
    return root


def test_type_token_and_parenting(plan):
    stack, result = plan
    root = component(result)
    platform = CLUSTERS[stack].get("platform")  # a managed platform's pool has its own token
    kind = component_for(PROVIDERS[stack], platform).TYPE_TOKEN.split(":")[-1] if platform else "GpuCluster"
    assert root["type"] == f"trainstack:{PROVIDERS[stack]}:{kind}"
    assert root["name"] == stack
    children = [r for r in result.resources if r is not root]
    assert len(children) >= (2 if platform else 6)  # a managed pool is a few resources
    assert {r["parent"] for r in children} == {stack}


def test_cost_tags_or_labels_everywhere(plan):
    stack, result = plan
    assert {r["name"]: cost_tags(r) for r in result.resources if cost_tags(r)} == {}
    tagged = [r for r in result.resources if isinstance(r["inputs"].get("tags"), dict)]
    for r in tagged:
        tags = r["inputs"]["tags"]
        assert tags.get("trainstack:cluster", tags.get("trainstack-cluster")) == stack, r["name"]
        assert tags.get("trainstack:provider", tags.get("trainstack-provider")) == PROVIDERS[stack], r["name"]


def test_common_outputs(plan):
    stack, result = plan
    # Beyond the common outputs, only a generated admin key (exported as a secret) and a TPU
    # cluster's queued-resource controller (its spot slices are queued resources).
    assert set(OUTPUT_NAMES) <= set(result.outputs) <= {*OUTPUT_NAMES, "ssh_private_key", "queued_resource_controller"}
    recorded = CLUSTERS[stack].get("usd_per_hour")
    assert result.outputs["usd_per_hour"] == recorded
    assert result.usd_compute_per_hour == recorded if recorded is not None else result.usd_per_hour is None
    if recorded is not None:  # the hourly figure adds the file system and requests, never less
        assert result.usd_per_hour >= recorded - 1e-6  # recorded to 6 places
    assert result.outputs["node_ids"] or CLUSTERS[stack].get("platform")  # SageMaker: nodes only per job
    if "file_system" in CLUSTERS[stack]:
        assert result.outputs["file_system_dns"]


MOUNT_COMMAND = re.compile(rf"sudo mkdir -p {SHARED_MOUNT} && sudo mount -t (lustre|nfs) -o \S+ (\S+) {SHARED_MOUNT}")


def test_every_exported_mount_command_mounts_where_the_nodes_do(plan):
    """One mount point, from one home (`clouds.mounts.SHARED_MOUNT`), for every cloud's exported
    mount command: the clouds whose nodes mount the file system export the command that mounts
    it there (its source from the file-system outputs); the others export None."""
    stack, result = plan
    command = result.outputs["file_system_mount_command"]
    nodes_mount = CLOUDS[PROVIDERS[stack]].shared_mount == SHARED_MOUNT
    if not (nodes_mount and "file_system" in CLUSTERS[stack]):
        assert command is None
        return
    found = MOUNT_COMMAND.fullmatch(command)
    assert found is not None, command
    assert result.outputs["file_system_dns"] in found.group(2)


def test_only_stateful_resources_are_protected(plan):
    stack, result = plan
    protected = {r["type"] for r in result.resources if r["protect"]}
    assert protected <= STATEFUL
    assert all(r["protect"] for r in result.resources if r["type"] in STATEFUL)
    has_file_system = "file_system" in CLUSTERS[stack]
    if not CLUSTERS[stack].get("platform"):  # a managed pool protects its bucket or storage account, if any
        assert bool(protected) == has_file_system


def test_nothing_open_to_the_internet(plan):
    stack, result = plan
    assert [r["name"] for r in result.resources if admin_ports_open(r)] == []
    # a managed pool may expose no network trainstack configures (SageMaker jobs, ModelArts pools)
    assert CLUSTERS[stack].get("platform") or {r["type"] for r in result.resources} & RULE_TYPES


@pytest.mark.parametrize(
    "record",
    [
        {
            "type": "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
            "inputs": {"cidrIpv4": "0.0.0.0/0", "ipProtocol": "tcp", "fromPort": 22, "toPort": 22},
        },
        {
            "type": "azure-native:network:NetworkSecurityGroup",
            "inputs": {
                "securityRules": [
                    {
                        "direction": "Inbound",
                        "access": "Allow",
                        "sourceAddressPrefix": "*",
                        "destinationPortRange": "22",
                    }
                ]
            },
        },
        {
            "type": "gcp:compute/firewall:Firewall",
            "inputs": {
                "direction": "INGRESS",
                "sourceRanges": ["0.0.0.0/0"],
                "allows": [{"protocol": "tcp", "ports": ["22"]}],
            },
        },
        {
            "type": "alicloud:ecs/securityGroupRule:SecurityGroupRule",
            "inputs": {"type": "ingress", "cidrIp": "0.0.0.0/0", "ipProtocol": "tcp", "portRange": "22/22"},
        },
        {
            "type": "tencentcloud:Security/groupRuleSet:GroupRuleSet",
            "inputs": {"ingresses": [{"action": "ACCEPT", "cidrBlock": "0.0.0.0/0", "port": "22"}]},
        },
        {"type": "huaweicloud:Vpc/secgroupRule:SecgroupRule", "inputs": {"direction": "ingress"}},
        {
            "type": "volcengine:vpc/securityGroupRule:SecurityGroupRule",
            "inputs": {
                "direction": "ingress",
                "policy": "accept",
                "cidrIp": "0.0.0.0/0",
                "portStart": 22,
                "portEnd": 22,
            },
        },
        {
            "type": "pulumi-python:dynamic/baiducloud:SecurityGroup",
            "inputs": {
                "rules": [{"direction": "ingress", "sourceIp": "0.0.0.0/0", "portRange": "22", "protocol": "tcp"}]
            },
        },
    ],
    ids=["aws", "azure", "gcp", "alicloud", "tencentcloud", "huaweicloud", "volcengine", "baiducloud"],
)
def test_admin_port_detector_catches_open_rules(record):
    assert admin_ports_open(record)
