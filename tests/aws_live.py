"""Shared pieces of the AWS tests: moto for EC2, Stubber + recorded answers for the rest.

moto (5.2) runs EC2 in process with AWS's own instance-type data. It does not implement
the Price List API, does not paginate the EC2 Describe calls (MaxResults is ignored) and
has EC2 Service Quotas for no code; those answers come from recorded files or the AWS
documentation's example shapes, served through botocore's Stubber, which checks every
request and response against the service model. A plugin of every test process
(tests/conftest.py), the xdist controller's included: boto3, botocore and moto (about 0.2 s of
CPU to import) are imported when a fixture or helper here is used, not with the module.
"""

from __future__ import annotations

import contextlib
import functools
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from botocore.stub import Stubber

FIXTURES = Path(__file__).parent / "profiles" / "fixtures"
P4D_ANSWER = json.loads((FIXTURES / "aws" / "get_products_p4d.json").read_text())
P4D_USE1, P4D_USW2 = 21.957642, 21.95764  # SKUs H7NGEAC6UEHNTKSJ, DHAMWQPURBTZBUA6


@pytest.fixture(scope="session", autouse=True)
def one_botocore_loader() -> Iterator[None]:
    """Every botocore session of the test process reads its service models through one loader.

    botocore caches what a loader read (service models, the endpoint data, the list of
    services) on the loader, and each new session makes a new one: the suite creates about 60
    sessions and 150 clients, and each client's session parsed its service model's JSON again
    (EC2's is several MB): about 0.2 s of CPU per session and client pair. Within one session
    botocore already hands the same cached model to every client, which treats it as read-only,
    so sharing the loader (per data path) between sessions gives every client the data a fresh
    one would parse. Credentials, regions and moto's handlers live on the session, not here."""
    import botocore.session

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(botocore.session, "create_loader", functools.cache(botocore.session.create_loader))
        yield


def credentials(monkeypatch: pytest.MonkeyPatch, present: bool = True) -> None:
    """Isolate from the real AWS config; fake keys when `present`, no credentials at all otherwise."""
    for name in (
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_SESSION_TOKEN",
        "AWS_SECURITY_TOKEN",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/aws-config")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/aws-credentials")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    if present:
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")  # pragma: allowlist secret


def registered_image(ec2: object, monkeypatch: pytest.MonkeyPatch) -> str:
    """The id of an image registered in moto's EC2 (`ec2`, a boto3 client) for launching
    instances, with moto's default images off: loading them (thousands of AMIs per region) was
    about 1 s of CPU each time a test's moto started."""
    monkeypatch.setenv("MOTO_EC2_LOAD_DEFAULT_AMIS", "false")
    return ec2.register_image(Name="trainstack-test", RootDeviceName="/dev/xvda")["ImageId"]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def moto_session():
    """A boto3 Session whose EC2 calls go to moto's in-process AWS, shared by a test module.

    Tests that change moto's state (run instances) use `fresh_moto_session` instead.
    """
    with pytest.MonkeyPatch.context() as patch, _moto(patch) as session:
        yield session


@pytest.fixture()
def fresh_moto_session(monkeypatch):
    """A boto3 Session on a moto AWS of its own (for tests that launch instances)."""
    with _moto(monkeypatch) as session:
        yield session


@contextlib.contextmanager
def _moto(patch: pytest.MonkeyPatch) -> Iterator[object]:
    credentials(patch)
    patch.setenv("MOTO_EC2_LOAD_DEFAULT_AMIS", "false")  # faster; tests register their own image
    import boto3
    from moto import mock_aws

    with mock_aws():
        yield boto3.Session(region_name="us-east-1")


def stubbed(service: str, region: str = "us-east-1") -> tuple[object, Stubber]:
    """A real boto3 client of `service` with an active Stubber (queue answers on it)."""
    import boto3
    from botocore.stub import Stubber

    client = boto3.client(
        service, region_name=region, aws_access_key_id="testing", aws_secret_access_key="testing"
    )  # pragma: allowlist secret
    stub = Stubber(client)
    stub.activate()
    return client, stub


def pricing_answering(*pages: dict) -> object:
    """A `pricing` client answering GetProducts with `pages`, in order."""
    client, stub = stubbed("pricing")
    for page in pages:
        stub.add_response("get_products", page)
    return client


def p4d_pages() -> tuple[dict, dict]:
    """The recorded p4d answer split in two pages (us-east-1; us-west-2 and eu-west-1)."""
    first, *rest = P4D_ANSWER["PriceList"]
    return (
        {"FormatVersion": "aws_v1", "PriceList": [first], "NextToken": "page-2"},
        {"FormatVersion": "aws_v1", "PriceList": rest},
    )


def quota_answer(code: str, value: float, region: str, name: str) -> dict:
    """A GetServiceQuota answer in the shape of the AWS CLI documentation's example."""
    return {
        "Quota": {
            "ServiceCode": "ec2",
            "ServiceName": "Amazon Elastic Compute Cloud (Amazon EC2)",
            "QuotaArn": f"arn:aws:servicequotas:{region}::ec2/{code}",
            "QuotaCode": code,
            "QuotaName": name,
            "Value": value,
            "Unit": "None",
            "Adjustable": True,
            "GlobalQuota": False,
            "UsageMetric": {
                "MetricNamespace": "AWS/Usage",
                "MetricName": "ResourceCount",
                "MetricDimensions": {"Resource": "vCPU", "Service": "EC2", "Type": "Resource"},
                "MetricStatisticRecommendation": "Maximum",
            },
        }
    }


def copy_catalog(tmp_path: Path) -> Path:
    """A writable copy of the small checked-in catalog (aws.csv, gcp.csv, catalog.json)."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "catalog", data)
    return data


def snapshot_files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (to prove nothing changed)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
