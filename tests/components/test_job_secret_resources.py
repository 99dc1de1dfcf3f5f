"""`job.env: {X: {secret: KEY}}` on AWS, GCP and Azure: the value (the Pulumi secret config
`trainstack:secrets.KEY`) reaches only the cloud's secret store, as a Pulumi secret; user data,
custom data and startup scripts name where to read it, never the value; the nodes' identity may
read exactly the job's secrets and nothing else."""

from __future__ import annotations

import base64
import json

import pulumi
import pytest
from pulumi.runtime.rpc import is_rpc_secret

from clouds.contract import OUTPUT_NAMES
from components.aws.cluster import AwsGpuCluster
from components.azure.cluster import AzureGpuCluster
from components.gcp.cluster import GcpGpuCluster
from tests.clusters import example_config
from tests.components.harness import run_component

SECRET = "wandb-0123456789abcdef-do-not-leak"
STORE = {
    "aws": "arn:aws:secretsmanager:us-east-1:123456789012:secret:team/hf-AbCdEf",
    "gcp": "projects/team-proj/secrets/hf-token",
    "azure": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/team/providers/"
    "Microsoft.KeyVault/vaults/team-kv/secrets/hf-token",
}
CLUSTERS = {"aws": AwsGpuCluster, "gcp": GcpGpuCluster, "azure": AzureGpuCluster}
# the resource that carries the value into the store, and the input that holds it
VALUE_INPUT = {
    "aws:secretsmanager/secretVersion:SecretVersion": "secretString",
    "gcp:secretmanager/secretVersion:SecretVersion": "secretData",
    "azure-native:keyvault:Secret": "properties",
}


def _records(cloud: str) -> list[dict]:
    job = {
        "command": "/fsx/train.py",
        "env": {"WANDB_API_KEY": {"secret": "wandbKey"}, "HF_TOKEN": {"store": STORE[cloud]}, "NCCL_DEBUG": "WARN"},
    }
    pulumi.runtime.set_all_config({"trainstack:secrets": json.dumps({"wandbKey": SECRET})}, ["trainstack:secrets"])
    try:
        _, monitor, _ = run_component(CLUSTERS[cloud], example_config(cloud, job=job), OUTPUT_NAMES)
    finally:
        pulumi.runtime.set_all_config({}, [])
    return monitor.records()


@pytest.fixture(scope="module", params=sorted(CLUSTERS))
def built(request):
    """(cloud, records) of the example cluster with a secret, built once per cloud."""
    return request.param, _records(request.param)


def _decoded(value: object) -> str:
    """Every string under `value`, base64 payloads decoded too (user data, custom data)."""
    if isinstance(value, dict):
        return " ".join(_decoded(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_decoded(v) for v in value)
    if isinstance(value, str):
        try:
            return value + " " + base64.b64decode(value, validate=True).decode(errors="ignore")
        except ValueError:
            return value
    return str(value)


def test_the_value_reaches_only_the_store_and_as_a_pulumi_secret(built):
    cloud, records = built
    carriers = [r for r in records if r["type"] in VALUE_INPUT]
    assert len(carriers) == 1, [r["type"] for r in carriers]
    held = carriers[0]["inputs"][VALUE_INPUT[carriers[0]["type"]]]
    assert is_rpc_secret(held) and SECRET in json.dumps(held)  # encrypted in the state by the engine
    for record in records:
        if record is not carriers[0]:
            assert SECRET not in _decoded(record["inputs"]), record["name"]


def test_the_nodes_bootstrap_names_where_to_read_each_secret(built):
    cloud, records = built
    files = [
        json.loads(text.split("<<'TRAINSTACK_JOB'\n", 1)[1].split("\nTRAINSTACK_JOB", 1)[0])
        for record in records
        for text in [_decoded(record["inputs"])]
        if "TRAINSTACK_JOB" in text
    ]
    workers = [job for job in files if "command" in job]  # the head's holds only its rendezvous
    assert workers and all("secrets" not in job for job in files if "command" not in job)
    job = workers[0]
    assert job["env"] == {"NCCL_DEBUG": "WARN"}
    assert set(job["secrets"]) == {"WANDB_API_KEY", "HF_TOKEN"}
    assert {where["store"] for where in job["secrets"].values()} == {cloud}


def _grants(cloud: str, records: list[dict]) -> list[str]:
    if cloud == "aws":
        [policy] = [r for r in records if r["name"] == "c-node-secrets"]
        [statement] = json.loads(policy["inputs"]["policy"])["Statement"]
        assert statement["Action"] == "secretsmanager:GetSecretValue"
        return statement["Resource"]
    if cloud == "gcp":
        members = [r["inputs"] for r in records if r["type"] == "gcp:secretmanager/secretIamMember:SecretIamMember"]
        assert {m["role"] for m in members} == {"roles/secretmanager.secretAccessor"}
        assert {m["member"] for m in members} == {"serviceAccount:c-nodes@mock-project.iam.gserviceaccount.com"}
        return sorted(f"projects/{m['project']}/secrets/{m['secretId']}" for m in members)
    roles = [r["inputs"] for r in records if r["type"] == "azure-native:authorization:RoleAssignment"]
    readers = [r for r in roles if r["roleDefinitionId"].endswith("4633458b-17de-408a-b874-0445c86b69e6")]
    assert {r["principalId"] for r in readers} == {"c-node-identity-principal"}
    return sorted(r["scope"] for r in readers)


EXPECTED = {
    "aws": [STORE["aws"], "arn:aws:secretsmanager:us-east-1:123456789012:secret:trainstack/c/WANDB_API_KEY-"],
    "gcp": ["projects/mock-project/secrets/c-WANDB_API_KEY", "projects/team-proj/secrets/hf-token"],
    "azure": [
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/c-rg/providers/Microsoft.KeyVault/"
        "vaults/ksc-",
        STORE["azure"],
    ],
}


def test_the_nodes_may_read_exactly_the_jobs_secrets(built):
    cloud, records = built
    grants = sorted(_grants(cloud, records))
    assert len(grants) == 2 and "*" not in "".join(grants)
    for granted, expected in zip(grants, sorted(EXPECTED[cloud]), strict=True):
        assert granted.startswith(expected), (granted, expected)


def test_the_secret_resources_pass_the_policy_rules(built):
    from policies.rules import check_resource

    _, records = built
    mine = [r for r in records if "secret" in r["name"]]
    assert mine and [(v.rule, v.resource) for r in mine for v in check_resource(r)] == []
