"""`trainstack catalog refresh` and `trainstack check` through the real CLI entry point."""

import functools

import pytest

import profiles.catalog.refresh as refresh_module
import profiles.preflight.aws as preflight_module
from profiles.catalog.fetchers import aws
from profiles.preflight import aws_signals
from profiles.preflight.aws_api import client as real_client
from tests.aws_live import (
    copy_catalog,
    credentials,
    p4d_pages,
    pricing_answering,
    quota_answer,
    snapshot_files,
    stubbed,
)
from tests.cli.helpers import ROOT, one_error_line, run
from tests.fresh_process import loaded_after
from tests.profiles.test_capacity_signals import answer as capacity_answer


@pytest.fixture()
def data(tmp_path):
    return copy_catalog(tmp_path)


def _aws_p4d(monkeypatch, pricing):
    """The real AWS fetcher, narrowed to p4d and answered by a recorded pricing client."""
    fetch = functools.partial(aws.fetch, families=("p4d",), pricing=pricing)
    monkeypatch.setattr(refresh_module, "fetcher_for", lambda provider: fetch)


def test_refresh_prints_the_summary_and_keeps_a_snapshot(data, moto_session, monkeypatch):
    _aws_p4d(monkeypatch, pricing_answering(*p4d_pages()))
    result = run("catalog", "refresh", "--provider", "aws", "--regions", "us-east-1", "--data-dir", str(data))
    assert result.exit_code == 0, result.output
    assert "aws (us-east-1): 4 offerings fetched; 2 added, 0 removed, 2 repriced" in result.stdout
    assert "largest price moves" in result.stdout and "p4d.24xlarge" in result.stdout
    assert f"previous file kept as {data / 'snapshots' / 'aws-fixture-1.csv'}" in result.stdout


def test_refresh_throttled_exits_1_and_keeps_the_catalog(data, moto_session, monkeypatch):
    pricing, stub = stubbed("pricing")
    stub.add_client_error("get_products", service_error_code="ThrottlingException", http_status_code=400)
    _aws_p4d(monkeypatch, pricing)
    before = snapshot_files(data)
    result = run("catalog", "refresh", "--provider", "aws", "--regions", "us-east-1", "--data-dir", str(data))
    one_error_line(result, "AWS throttled pricing:GetProducts in us-east-1", code=1)
    assert snapshot_files(data) == before


def test_refresh_without_credentials_exits_1_and_keeps_the_catalog(data, monkeypatch):
    credentials(monkeypatch, present=False)
    before = snapshot_files(data)
    result = run("catalog", "refresh", "--provider", "aws", "--regions", "us-east-1", "--data-dir", str(data))
    one_error_line(result, "AWS credentials not found", code=1)
    assert snapshot_files(data) == before


@pytest.mark.parametrize(
    "args, text",
    [
        pytest.param(
            ["--provider", "ibm"],
            "--provider: unknown provider 'ibm'; valid: alicloud, aws, azure, baiducloud, gcp, huaweicloud, tencentcloud, volcengine",
            id="provider",
        ),
        pytest.param(["--provider", "aws", "--regions", " , "], "--regions: give region names", id="empty-regions"),
        pytest.param(
            ["--provider", "aws", "--regions", "us-east-9"],
            "--regions: unknown AWS region 'us-east-9'; did you mean us-east-2, us-east-1",
            id="unknown-region-before-credentials",
        ),
    ],
)
def test_refresh_bad_input(data, args, text):
    before = snapshot_files(data)
    one_error_line(run("catalog", "refresh", *args, "--data-dir", str(data)), text)
    assert snapshot_files(data) == before


@pytest.fixture()
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _quota_client(monkeypatch, value):
    quotas, _ = stubbed("service-quotas", "eu-north-1")
    _.add_response("get_service_quota", quota_answer("L-7212CCBC", value, "eu-north-1", "All P Spot Instance Requests"))
    monkeypatch.setattr(
        preflight_module,
        "client",
        lambda session, service, region: (
            quotas if service == "service-quotas" else real_client(session, service, region)
        ),
    )
    # the capacity signals: moto has neither call, so recorded answers (tests/fixtures/capacity)
    signals, stub = stubbed("ec2", "eu-north-1")
    stub.add_response("get_spot_placement_scores", capacity_answer("aws-spot-placement-scores.json"))
    stub.add_response("describe_capacity_block_offerings", capacity_answer("aws-capacity-block-offerings.json"))
    monkeypatch.setattr(aws_signals, "client", lambda session, service, region: signals)


@pytest.mark.parametrize(
    "quota, code, mark",
    [
        pytest.param(384.0, 0, "ok quota:", id="enough"),
        pytest.param(96.0, 1, "FAIL quota:", id="short"),
    ],
)
def test_check_aws_stack(at_root, moto_session, monkeypatch, quota, code, mark):
    _quota_client(monkeypatch, quota)
    result = run("check", "-s", "training-a100")  # 2 x p4d.24xlarge spot in eun1-az3
    assert result.exit_code == code, result.output
    assert "ok offered: p4d.24xlarge in eun1-az3 (eu-north-1) is offered" in result.stdout
    assert mark in result.stdout
    # the signals are advice: a low spot score is `?`, never the exit status
    assert (
        "? spot-score: 2 x spot p4d.24xlarge in one zone of eu-north-1: AWS spot placement score 2 of 10"
        in result.stdout
    )
    assert "info capacity-block: 2 x p4d.24xlarge for 96 h: 2 Capacity Block offering(s)" in result.stdout
    if code:
        assert "fix: request L-7212CCBC >= 192 vCPUs in eu-north-1" in result.stdout


def test_check_azure_stack_says_what_to_request(at_root):
    result = run("check", "-s", "training-h100-azure")
    assert result.exit_code == 0, result.output
    assert "? quota: not checked live (no Azure quota API" in result.stdout
    assert "fix: compare with `az vm list-usage --location eastus -o table`" in result.stdout


def test_check_without_aws_credentials_exits_1(at_root, monkeypatch):
    credentials(monkeypatch, present=False)
    one_error_line(run("check", "-s", "training-a100"), "AWS credentials not found", code=1)


@pytest.mark.parametrize(
    "stack, text",
    [
        pytest.param("no-such-stack", "stack file not found", id="missing"),
        pytest.param("bad/name", "stack name 'bad/name'", id="bad-name"),
    ],
)
def test_check_bad_stack(at_root, stack, text):
    one_error_line(run("check", "-s", stack), text)


def test_resolve_never_imports_boto3():
    code = (
        "from typer.testing import CliRunner; from trainstack.cli.app import app; "
        "r = CliRunner().invoke(app, ['resolve', 'profiles/workloads/training-a100.yaml']); assert r.exit_code == 0"
    )
    assert not loaded_after(code) & {"boto3", "botocore"}


def test_refresh_into_a_folder_without_a_catalog_calls_no_api(tmp_path, monkeypatch):
    def no_call(*args, **kwargs):
        raise AssertionError("fetched before checking the folder")

    monkeypatch.setattr(refresh_module, "fetcher_for", lambda provider: no_call)
    result = run("catalog", "refresh", "--provider", "aws", "--data-dir", str(tmp_path / "missing"))
    one_error_line(result, f"--data-dir: {tmp_path / 'missing'} holds no catalog.json; give the catalog folder")


def test_check_without_aws_credentials_keeps_what_it_found_offline(at_root, monkeypatch):
    """The catalog finding (and any offline finding) is printed before the live error."""
    credentials(monkeypatch, present=False)
    result = run("check", "-s", "training-a100")
    one_error_line(result, "live checks did not run: AWS credentials not found", code=1)
    assert (
        "preflight training-a100" in result.stdout and "catalog: stack prices its nodes' compute at $" in result.stdout
    )


def test_an_html_error_page_from_aws_becomes_one_short_line():
    from botocore.exceptions import ClientError

    from profiles.preflight.aws_api import aws_errors

    page = (
        "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body>\n"
        + "<p>An error occurred while processing your request.</p>\n" * 40
        + "</body></html>"
    )
    error = ClientError({"Error": {"Code": "502", "Message": page}}, "GetProducts")
    with pytest.raises(ValueError) as caught:
        with aws_errors("pricing:GetProducts", "us-east-1", ValueError, "rerun"):
            raise error
    assert str(caught.value) == "AWS pricing:GetProducts in us-east-1 failed: 502: HTML error page: 502 Bad Gateway"


def test_a_refresh_that_fails_with_an_html_page_prints_one_line(data, monkeypatch):
    """Whatever a fetcher quotes from the server, the error stays one line without the page."""
    from profiles.catalog.fetchers import FetchError

    page = "<html><head><title>504 Gateway Time-out</title></head><body>\n" + "<p>busy</p>\n" * 200 + "</body></html>"

    def failing(*args, **kwargs):
        raise FetchError(f"AWS pricing:GetProducts in us-east-1 failed ({page}); catalog unchanged")

    monkeypatch.setattr(refresh_module, "fetcher_for", lambda provider: failing)
    result = run("catalog", "refresh", "--provider", "aws", "--regions", "us-east-1", "--data-dir", str(data))
    one_error_line(result, "HTML error page: 504 Gateway Time-out", code=1)
    assert "<p>" not in result.stderr


def test_check_sagemaker_stack_reads_sagemakers_quota_not_ec2s(at_root, moto_session, monkeypatch):
    """The SageMaker example stack (2 x p4d.24xlarge, managed spot, us-east-1) against its spot
    training-job quota at AWS's default 0: exit 1 with the increase to request; no EC2
    offering, vCPU quota or capacity signal (moto's SageMaker: no job running)."""
    from profiles.preflight import aws_sagemaker

    name = "ml.p4d.24xlarge for spot training job usage"
    quotas, stub = stubbed("service-quotas")
    asked = {"ServiceCode": "sagemaker", "MaxResults": 100}
    stub.add_response("list_service_quotas", {"Quotas": []}, asked)
    default = {"ServiceCode": "sagemaker", "QuotaCode": "L-TESTSPOT1", "QuotaName": name, "Value": 0.0}
    stub.add_response("list_aws_default_service_quotas", {"Quotas": [default]}, asked)
    monkeypatch.setattr(
        aws_sagemaker,
        "client",
        lambda session, service, region: (
            quotas if service == "service-quotas" else real_client(session, service, region)
        ),
    )
    result = run("check", "-s", "training-a100-sagemaker")
    assert result.exit_code == 1, result.output
    assert "info offered: SageMaker picks the zone of a training job" in result.stdout
    assert f"FAIL quota: '{name}' (L-TESTSPOT1) in us-east-1: need 2 instances" in result.stdout
    assert "--service-code sagemaker --quota-code L-TESTSPOT1 --desired-value 2" in result.stdout
    assert not any(word in result.stdout for word in ("vCPU", "spot-score", "capacity-block"))
    stub.assert_no_pending_responses()
