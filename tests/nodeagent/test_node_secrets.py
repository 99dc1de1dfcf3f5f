"""The node agent reads the job's secrets with the node's identity (`nodeagent.secrets`): AWS
through the AWS CLI's `get-secret-value` answered by moto, GCP and Azure from recorded answers in
each API's documented format; a failure names the variable and the store, never a value."""

from __future__ import annotations

import base64
import json
import urllib.parse

import boto3
import pytest
from moto import mock_aws

from nodeagent.secrets import SecretError, read_secrets

VALUE = "wandb-0123456789abcdef-do-not-leak"


def aws_cli_on_moto(argv: list[str]) -> str:
    """`aws secretsmanager get-secret-value ... --output json` answered by moto's Secrets Manager."""
    assert argv[:3] == ["aws", "secretsmanager", "get-secret-value"]
    args = dict(zip(argv[3::2], argv[4::2], strict=True))
    assert args["--output"] == "json"
    client = boto3.client("secretsmanager", region_name=args["--region"])
    try:
        answer = client.get_secret_value(SecretId=args["--secret-id"])
    except client.exceptions.ResourceNotFoundException as exc:
        raise SecretError(str(exc)) from None
    answer.pop("ResponseMetadata")
    return json.dumps(answer, default=str)


@mock_aws
def test_aws_reads_the_secret_by_name_and_by_arn_with_the_cli():
    client = boto3.client("secretsmanager", region_name="eu-north-1")
    client.create_secret(Name="trainstack/c/WANDB_API_KEY", SecretString=VALUE)
    arn = client.create_secret(Name="team/hf", SecretString="hf-token-value")["ARN"]
    found = read_secrets(
        {
            "WANDB_API_KEY": {"store": "aws", "id": "trainstack/c/WANDB_API_KEY", "region": "eu-north-1"},
            "HF_TOKEN": {"store": "aws", "id": arn, "region": "eu-north-1"},
        },
        run=aws_cli_on_moto,
    )
    assert found == {"WANDB_API_KEY": VALUE, "HF_TOKEN": "hf-token-value"}


@mock_aws
def test_aws_a_missing_secret_names_the_variable_and_store():
    with pytest.raises(SecretError) as caught:
        read_secrets({"HF_TOKEN": {"store": "aws", "id": "nope", "region": "us-east-1"}}, run=aws_cli_on_moto)
    assert str(caught.value).startswith("HF_TOKEN: cannot read nope from the aws store")


class Recorded:
    """Answers recorded in each API's documented format, by URL (the requests are kept)."""

    def __init__(self, answers: dict[str, tuple[int, object]]) -> None:
        self.answers, self.requests = answers, []

    def __call__(self, url: str, method: str = "GET", headers: dict | None = None, body=None, timeout: float = 2.0):
        self.requests.append((url, dict(headers or {})))
        status, answer = self.answers[url.split("?")[0]]
        return status, {}, answer if isinstance(answer, str) else json.dumps(answer)


GCP_MD = "http://metadata.google.internal/computeMetadata/v1"
# Metadata server token and Secret Manager AccessSecretVersionResponse (documented shapes).
GCP_TOKEN = {"access_token": "ya29.node-token", "expires_in": 3599, "token_type": "Bearer"}
GCP_ACCESS = {
    "name": "projects/123456789/secrets/c-WANDB_API_KEY/versions/1",
    "payload": {"data": base64.b64encode(VALUE.encode()).decode(), "dataCrc32c": "1234567"},
}


def test_gcp_reads_with_the_metadata_token_in_the_nodes_own_project():
    call = Recorded(
        {
            f"{GCP_MD}/project/project-id": (200, "team-proj"),
            f"{GCP_MD}/instance/service-accounts/default/token": (200, GCP_TOKEN),
            "https://secretmanager.googleapis.com/v1/projects/team-proj/secrets/c-WANDB_API_KEY/versions/latest:access": (
                200,
                GCP_ACCESS,
            ),
        }
    )
    where = {"store": "gcp", "id": "projects/-/secrets/c-WANDB_API_KEY/versions/latest"}
    assert read_secrets({"WANDB_API_KEY": where}, call=call) == {"WANDB_API_KEY": VALUE}
    assert call.requests[0][1] == {"Metadata-Flavor": "Google"}
    assert call.requests[-1][1] == {"Authorization": "Bearer ya29.node-token"}


def test_gcp_a_denied_read_names_the_variable_and_never_the_value():
    denied = {
        "error": {
            "code": 403,
            "message": "Permission 'secretmanager.versions.access' denied",
            "status": "PERMISSION_DENIED",
        }
    }
    call = Recorded(
        {
            f"{GCP_MD}/instance/service-accounts/default/token": (200, GCP_TOKEN),
            "https://secretmanager.googleapis.com/v1/projects/p/secrets/s/versions/latest:access": (403, denied),
        }
    )
    with pytest.raises(
        SecretError, match=r"^HF_TOKEN: cannot read .* from the gcp store: Secret Manager answered HTTP 403$"
    ):
        read_secrets({"HF_TOKEN": {"store": "gcp", "id": "projects/p/secrets/s/versions/latest"}}, call=call)


AZ_TOKEN_URL = "http://169.254.169.254/metadata/identity/oauth2/token"
# IMDS managed-identity token and Key Vault GetSecret answers (documented shapes).
AZ_TOKEN = {
    "access_token": "eyJ0eXAi.node",
    "expires_in": "86399",
    "expires_on": "1796000000",
    "resource": "https://vault.azure.net",
    "token_type": "Bearer",
}
AZ_SECRET = {
    "value": VALUE,
    "id": "https://ksc-1234abcd.vault.azure.net/secrets/c-WANDB-API-KEY/4387e9f3d6e14c459867679a90fd0f79",
    "attributes": {"enabled": True, "created": 1796000000, "updated": 1796000000, "recoveryLevel": "Recoverable"},
}


def test_azure_reads_with_the_managed_identity_token():
    secret_url = "https://ksc-1234abcd.vault.azure.net/secrets/c-WANDB-API-KEY"
    call = Recorded({AZ_TOKEN_URL: (200, AZ_TOKEN), secret_url: (200, AZ_SECRET)})
    assert read_secrets({"WANDB_API_KEY": {"store": "azure", "id": secret_url}}, call=call) == {"WANDB_API_KEY": VALUE}
    token_query = urllib.parse.parse_qs(urllib.parse.urlsplit(call.requests[0][0]).query)
    assert token_query == {"api-version": ["2018-02-01"], "resource": ["https://vault.azure.net"]}
    assert call.requests[0][1] == {"Metadata": "true"}
    assert call.requests[1][0] == f"{secret_url}?api-version=7.4"
    assert call.requests[1][1] == {"Authorization": "Bearer eyJ0eXAi.node"}


def test_an_unknown_store_is_refused():
    with pytest.raises(SecretError, match="X: unknown secret store 'vault'"):
        read_secrets({"X": {"store": "vault", "id": "a"}})


def test_only_a_job_that_reads_secrets_ships_the_reader_and_only_its_clouds():
    from nodeagent.ship import shipped_for

    assert not [m for m in shipped_for("aws") if "secret" in m]
    assert [m for m in shipped_for("aws", True) if "secret" in m] == [
        "secrets.py",
        "secret_stores/__init__.py",
        "secret_stores/aws.py",
    ]
