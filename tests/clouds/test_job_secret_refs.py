"""Secret references in `job.env` (`clouds.job_secrets`): the forms each cloud accepts, the one-line
refusals, where a node reads each one, and a stack file whose secrets are not encrypted."""

from __future__ import annotations

from pathlib import Path

import pytest

from clouds.config import ConfigError, parse_cluster_config
from clouds.job_secrets import missing_secret, node_secrets, stored_secrets_problem
from tests.clusters import example

HF = "arn:aws:secretsmanager:us-east-1:123456789012:secret:team/hf-AbCdEf"


def cluster(cloud: str, env: dict, **more):
    return parse_cluster_config(example(cloud, job={"command": "/fsx/train.py", "env": env}, **more))


@pytest.mark.parametrize(
    ("cloud", "env", "says"),
    [
        pytest.param("aws", {"K": {"secret": "a", "store": HF}}, "give exactly one of secret", id="both"),
        pytest.param("aws", {"K": {}}, "give exactly one of secret", id="neither"),
        pytest.param("aws", {"K": {"secret": "a b"}}, "secret: 'a b' is not a config key", id="bad-key"),
        pytest.param(
            "aws", {"K": {"store": "team/hf"}}, "job.env.K.store: 'team/hf' is not one AWS Secrets", id="aws-name"
        ),
        pytest.param(
            "aws",
            {"K": {"store": "arn:aws:secretsmanager:us-east-1:123456789012:secret:*"}},
            "is not one",
            id="aws-star",
        ),
        pytest.param("gcp", {"K": {"store": "projects/p/secrets/*"}}, "is not one GCP Secret Manager", id="gcp-star"),
        pytest.param("azure", {"K": {"store": "https://kv.vault.azure.net/secrets/s"}}, "Azure Key Vault", id="az-url"),
        pytest.param(
            "tencentcloud", {"K": {"secret": "a"}}, "job.env.K: tencentcloud has no secret store", id="tencent"
        ),
        pytest.param("huaweicloud", {"K": {"secret": "a"}}, "job.env.K: huaweicloud has no secret store", id="huawei"),
    ],
)
def test_a_secret_reference_that_cannot_reach_the_nodes_is_refused_in_one_line(cloud, env, says):
    with pytest.raises((ConfigError, ValueError)) as caught:
        cluster(cloud, env)
    assert says in str(caught.value) and "\n" not in str(caught.value).strip()


def test_each_cloud_names_where_its_nodes_read_a_secret():
    def where(cloud, ref):
        return node_secrets(cloud, "c", "us-east-1", cluster(cloud, {"K": ref}).job)["K"]

    assert where("aws", {"secret": "k"}) == {"store": "aws", "id": "trainstack/c/K", "region": "us-east-1"}
    assert where("aws", {"store": HF}) == {"store": "aws", "id": HF, "region": "us-east-1"}
    assert where("gcp", {"secret": "k"}) == {"store": "gcp", "id": "projects/-/secrets/c-K/versions/latest"}
    assert where("gcp", {"store": "projects/proj-1/secrets/s/versions/3"}) == {
        "store": "gcp",
        "id": "projects/proj-1/secrets/s/versions/3",
    }
    vault = (
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/g/providers/Microsoft.KeyVault/vaults/kv1"
    )
    assert where("azure", {"store": f"{vault}/secrets/s-1"}) == {
        "store": "azure",
        "id": "https://kv1.vault.azure.net/secrets/s-1",
    }
    assert where("azure", {"secret": "k"})["id"].endswith(".vault.azure.net/secrets/c-K")


def test_a_credential_given_as_a_secret_is_accepted_and_a_plain_one_still_refused():
    assert cluster("aws", {"WANDB_API_KEY": {"secret": "wandbKey"}}).job.env["WANDB_API_KEY"].secret == "wandbKey"
    with pytest.raises(ConfigError, match=r"WANDB_API_KEY: \{secret: KEY\}"):
        cluster("aws", {"WANDB_API_KEY": "plain-value"})


@pytest.mark.parametrize(
    ("stored", "problem"),
    [
        ({"wandbKey": {"secure": "v1:AAAA"}}, None),
        (None, None),
        ({"wandbKey": "plain-value-123"}, "trainstack:secrets.wandbKey: stored in plain text"),
        ({"wandbKey": {"secure": "v1:A", "extra": 1}}, "trainstack:secrets.wandbKey: stored in plain text"),
        ("a-string", "trainstack:secrets: not a map"),
    ],
)
def test_secrets_in_a_stack_file_must_be_encrypted(stored, problem):
    found = stored_secrets_problem(stored)
    assert (found is None) if problem is None else (problem in found and "plain-value-123" not in found)


def test_a_secret_reference_needs_its_config_key():
    job = cluster("aws", {"A": {"secret": "wandbKey"}}).job
    assert missing_secret(job, {"wandbKey": {"secure": "v1:x"}}) is None
    assert "trainstack:secrets.wandbKey is not set" in missing_secret(job, {})
    assert "pulumi config set --secret --path 'trainstack:secrets.wandbKey'" in missing_secret(job, None)


def test_the_fix_names_the_stack_it_is_printed_for(tmp_path):
    """The unset-secret and plain-text-secret fixes end `-s <the stack>`, not a placeholder
    (new-user pass 2, finding 15), read from the stack file as `plan` and `up` read it."""
    import yaml

    from profiles.stack.file import StackFileError, read_cluster

    job = cluster("aws", {"A": {"secret": "wandbKey"}}).job
    assert missing_secret(job, {}, "training-x").endswith("VALUE -s training-x")
    assert stored_secrets_problem({"k": "plain"}, "training-x").endswith("VALUE -s training-x")
    committed = Path(__file__).parents[2] / "stacks" / "Pulumi.training-a100.yaml"
    stack = yaml.safe_load(committed.read_text(encoding="utf-8"))
    stack["config"]["trainstack:cluster"]["job"] = {"command": "/fsx/train.py", "env": {"A": {"secret": "wandbKey"}}}
    path = tmp_path / "Pulumi.my-run.yaml"
    path.write_text(yaml.safe_dump(stack), encoding="utf-8")
    with pytest.raises(StackFileError, match=r"VALUE -s my-run$"):
        read_cluster(path)
    stack["config"]["trainstack:secrets"] = {"wandbKey": "plain"}
    path.write_text(yaml.safe_dump(stack), encoding="utf-8")
    with pytest.raises(StackFileError, match=r"trainstack:secrets.wandbKey' VALUE -s my-run$"):
        read_cluster(path)
