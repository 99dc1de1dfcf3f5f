"""Preflight of SageMaker stacks: SageMaker's own per-type quotas (found by name), the instances
running jobs, warm pools and other HyperPod clusters hold, never EC2's zone offering or vCPUs.

Service Quotas and SageMaker answers are botocore Stubber responses in the APIs' documented
shapes (the Stubber checks each request and answer against botocore's service model): moto
lists SageMaker quotas for no code and records every training job as Completed. The quota codes
are this test's own (each type has its own code, and public listings disagree on them: Q8).
"""

from __future__ import annotations

import pytest

from clouds.contract import ClusterConfig
from profiles.preflight import aws_sagemaker as sm
from profiles.preflight.aws_sagemaker_usage import group_instances, job_instances
from profiles.preflight.check import PreflightError, preflight
from profiles.preflight.signals import capacity_signals
from tests.aws_live import stubbed
from tests.clusters import example_config

REGION = "us-east-1"
P4D_JOB, P4D_SPOT = "ml.p4d.24xlarge for training job usage", "ml.p4d.24xlarge for spot training job usage"
P4D_CLUSTER, CONTROLLER = "ml.p4d.24xlarge for cluster usage", "ml.m5.xlarge for cluster usage"
CODES = {P4D_JOB: "L-TESTJOB1", P4D_SPOT: "L-TESTSPOT1", P4D_CLUSTER: "L-TESTHP1", CONTROLLER: "L-TESTHP2"}
OTHER = {"Endpoints per account": "L-TESTOTHER", "ml.g5.xlarge for training job usage": "L-TESTG5"}


def _job_stack(**changes) -> ClusterConfig:
    return example_config("aws", platform="sagemaker", file_system=None, **changes)


def _pod_stack(**changes) -> ClusterConfig:
    return example_config("aws", platform="hyperpod", purchase="on-demand", **changes)


def _quota(name: str, value: float) -> dict:
    code = {**CODES, **OTHER}[name]
    return {
        "ServiceCode": "sagemaker",
        "ServiceName": "Amazon SageMaker",
        "QuotaArn": f"arn:aws:servicequotas:{REGION}:123456789012:sagemaker/{code}",
        "QuotaCode": code,
        "QuotaName": name,
        "Value": value,
        "Unit": "None",
        "Adjustable": True,
        "GlobalQuota": False,
    }


def _quotas(applied: dict[str, float], defaults: dict[str, float] | None = None):
    """A service-quotas client: ListServiceQuotas in two pages (others first, then `applied`),
    then, when `defaults` is given, ListAWSDefaultServiceQuotas in one page."""
    client, stub = stubbed("service-quotas")
    asked = {"ServiceCode": "sagemaker"}
    others = [_quota(n, 2.0) for n in OTHER]
    stub.add_response("list_service_quotas", {"Quotas": others, "NextToken": "page-2"}, asked)
    stub.add_response(
        "list_service_quotas", {"Quotas": [_quota(n, v) for n, v in applied.items()]}, {**asked, "NextToken": "page-2"}
    )
    if defaults is not None:
        stub.add_response(
            "list_aws_default_service_quotas", {"Quotas": others + [_quota(n, v) for n, v in defaults.items()]}, asked
        )
    return client, stub


def _job(name: str, ml: str, count: int, spot: bool, **config) -> dict:
    return {
        "TrainingJobName": name,
        "TrainingJobArn": f"arn:aws:sagemaker:{REGION}:123456789012:training-job/{name}",
        "ModelArtifacts": {"S3ModelArtifacts": f"s3://b/{name}/model.tar.gz"},
        "TrainingJobStatus": "InProgress",
        "SecondaryStatus": "Training",
        "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
        "CreationTime": "2026-12-07T10:00:00Z",
        "EnableManagedSpotTraining": spot,
        "ResourceConfig": {"InstanceType": ml, "InstanceCount": count, "VolumeSizeInGB": 200, **config},
    }


def _summary(name: str, status: str = "InProgress", **more) -> dict:
    arn = f"arn:aws:sagemaker:{REGION}:123456789012:training-job/{name}"
    created = "2026-12-07T10:00:00Z"
    return {
        "TrainingJobName": name,
        "TrainingJobArn": arn,
        "CreationTime": created,
        "TrainingJobStatus": status,
        **more,
    }


def _sagemaker(running: list[dict] = (), kept: list[dict] = ()):
    """A sagemaker client answering ListTrainingJobs (InProgress, then warm pools Available)
    and DescribeTrainingJob for each job listed."""
    client, stub = stubbed("sagemaker")
    stub.add_response(
        "list_training_jobs",
        {"TrainingJobSummaries": [_summary(j["TrainingJobName"]) for j in running]},
        {"StatusEquals": "InProgress"},
    )
    pools = [_summary(j["TrainingJobName"], "Completed", WarmPoolStatus={"Status": "Available"}) for j in kept]
    stub.add_response("list_training_jobs", {"TrainingJobSummaries": pools}, {"WarmPoolStatusEquals": "Available"})
    for job in [*running, *kept]:
        stub.add_response("describe_training_job", job, {"TrainingJobName": job["TrainingJobName"]})
    return client, stub


def _fix(code: str, desired: int) -> str:
    return (
        f"request {code} >= {desired} instances in {REGION}: aws service-quotas request-service-quota-increase "
        f"--service-code sagemaker --quota-code {code} --desired-value {desired} --region {REGION}"
    )


@pytest.mark.parametrize(
    ("stack", "applied", "defaults", "running", "kept", "status", "detail", "desired"),
    [
        pytest.param(
            _job_stack(purchase="on-demand"),
            {P4D_JOB: 4.0},
            None,
            [],
            [],
            "ok",
            f"'{P4D_JOB}' (L-TESTJOB1) in us-east-1: need 2 instances (2-instance training job) + 0 held "
            "(0 training job(s) running or kept in a warm pool on ml.p4d.24xlarge) <= quota 4",
            None,
            id="on-demand-within-quota",
        ),
        pytest.param(
            _job_stack(purchase="on-demand"),
            {P4D_JOB: 3.0},
            None,
            [_job("other", "ml.p4d.24xlarge", 1, False), _job("spot-one", "ml.p4d.24xlarge", 4, True)],
            [_job("kept", "ml.p4d.24xlarge", 1, False)],
            "fail",
            f"'{P4D_JOB}' (L-TESTJOB1) in us-east-1: need 2 instances (2-instance training job) + 2 held "
            "(2 training job(s) running or kept in a warm pool on ml.p4d.24xlarge) > quota 3; SageMaker refuses it "
            "(ResourceLimitExceeded) until raised",
            4,
            id="over-quota-with-a-running-job-and-a-warm-pool",
        ),
        pytest.param(
            _job_stack(purchase="on-demand", nodes=1),
            {},
            {P4D_JOB: 0.0},
            [],
            [],
            "fail",
            f"'{P4D_JOB}' (L-TESTJOB1) in us-east-1: need 1 instances (1-instance training job) + 0 held "
            "(0 training job(s) running or kept in a warm pool on ml.p4d.24xlarge) > quota 0; SageMaker refuses it "
            "(ResourceLimitExceeded) until raised",
            1,
            id="never-set-falls-back-to-the-default-0",
        ),
        pytest.param(
            _job_stack(purchase="spot"),
            {P4D_JOB: 8.0, P4D_SPOT: 4.0},
            None,
            [_job("on-demand", "ml.p4d.24xlarge", 4, False), _job("spot", "ml.p4d.24xlarge", 2, True)],
            [],
            "ok",
            f"'{P4D_SPOT}' (L-TESTSPOT1) in us-east-1: need 2 instances (2-instance managed spot training job) + 2 "
            "held (1 managed spot training job(s) running or kept in a warm pool on ml.p4d.24xlarge) <= quota 4",
            None,
            id="spot-counts-spot-jobs-against-the-spot-quota",
        ),
        pytest.param(
            _job_stack(purchase="spot"),
            {P4D_JOB: 8.0},
            {P4D_JOB: 0.0},
            [],
            [],
            "unknown",
            f"'{P4D_SPOT}': Service Quotas lists no such SageMaker quota in us-east-1 (applied or default)",
            None,
            id="no-quota-listed",
        ),
    ],
)
def test_training_job_quota(stack, applied, defaults, running, kept, status, detail, desired):
    quotas, quota_stub = _quotas(applied, defaults)
    sagemaker, jobs_stub = _sagemaker(running, kept)
    placed, quota = sm.read_training_job(stack, quotas, sagemaker)
    assert (placed.check, placed.status) == ("offered", "info") and "SageMaker picks the zone" in placed.detail
    assert (quota.check, quota.status, quota.detail) == ("quota", status, detail)
    assert quota.fix == (_fix("L-TESTJOB1", desired) if desired else quota.fix)
    assert bool(quota.fix) == (status != "ok")
    quota_stub.assert_no_pending_responses()
    jobs_stub.assert_no_pending_responses()


def _cluster(name: str, groups: list[tuple[str, int, int, bool]], status: str = "InService") -> dict:
    return {
        "ClusterArn": f"arn:aws:sagemaker:{REGION}:123456789012:cluster/{name}",
        "ClusterName": name,
        "ClusterStatus": status,
        "CreationTime": "2026-12-07T10:00:00Z",
        "VpcConfig": {"SecurityGroupIds": ["sg-1"], "Subnets": ["subnet-1"]},
        "InstanceGroups": [
            {
                "InstanceGroupName": f"g{i}",
                "InstanceType": ml,
                "CurrentCount": current,
                "TargetCount": target,
                **({"CapacityRequirements": {"Spot": {}}} if spot else {}),
            }
            for i, (ml, current, target, spot) in enumerate(groups)
        ],
    }


def test_hyperpod_checks_workers_and_controller_against_cluster_usage_beside_other_clusters():
    own = _cluster("training-a100", [("ml.p4d.24xlarge", 8, 8, False)])  # the stack's own: not counted
    other = _cluster(
        "team-b",
        [("ml.m5.xlarge", 1, 1, False), ("ml.p4d.24xlarge", 1, 3, False), ("ml.p4d.24xlarge", 5, 5, True)],
    )
    failed = _cluster("broken", [("ml.p4d.24xlarge", 0, 4, False)], "Failed")
    quotas, quota_stub = _quotas({P4D_CLUSTER: 4.0, CONTROLLER: 2.0})
    sagemaker, stub = stubbed("sagemaker")
    summaries = [
        {k: c[k] for k in ("ClusterArn", "ClusterName", "ClusterStatus", "CreationTime")} for c in (own, other, failed)
    ]
    stub.add_response("list_clusters", {"ClusterSummaries": summaries}, {})
    stub.add_response("describe_cluster", other, {"ClusterName": "team-b"})
    placed, workers, controller = sm.read_hyperpod(_pod_stack(), quotas, sagemaker, "training-a100")
    assert placed.status == "info" and "stack's subnet in use1-az4" in placed.detail
    held = "(by 1 other HyperPod cluster(s) in us-east-1)"
    assert (workers.status, workers.detail) == (
        "fail",
        f"'{P4D_CLUSTER}' (L-TESTHP1) in us-east-1: need 2 instances (2 HyperPod worker instances) + 3 held {held} "
        "> quota 4; SageMaker refuses it (ResourceLimitExceeded) until raised",
    )
    assert workers.fix == _fix("L-TESTHP1", 5)
    assert (controller.status, controller.detail) == (
        "ok",
        f"'{CONTROLLER}' (L-TESTHP2) in us-east-1: need 1 instances (1 HyperPod Slurm controller instance) + 1 held "
        f"{held} <= quota 2",
    )
    quota_stub.assert_no_pending_responses()
    stub.assert_no_pending_responses()


def test_a_denied_quota_list_is_one_line_naming_the_call_and_the_fix():
    quotas, stub = stubbed("service-quotas")
    stub.add_client_error("list_service_quotas", service_error_code="AccessDeniedException", http_status_code=400)
    sagemaker, _ = stubbed("sagemaker")
    with pytest.raises(PreflightError) as raised:
        sm.read_training_job(_job_stack(), quotas, sagemaker)
    assert str(raised.value) == (
        "AWS denied servicequotas:ListServiceQuotas in us-east-1 (AccessDeniedException); allow "
        "servicequotas:ListServiceQuotas for your identity or run `aws configure` or `aws sso login`, or set AWS_PROFILE"
    )


@pytest.mark.parametrize(
    ("quota", "status"), [pytest.param(4.0, "unknown", id="within"), pytest.param(1.0, "fail", id="over")]
)
def test_jobs_not_readable_leave_the_quota_unknown_unless_the_stack_alone_exceeds_it(quota, status):
    quotas, _ = _quotas({P4D_SPOT: quota})
    sagemaker, stub = stubbed("sagemaker")
    stub.add_client_error("list_training_jobs", service_error_code="AccessDeniedException", http_status_code=400)
    _, found = sm.read_training_job(_job_stack(), quotas, sagemaker)
    assert found.status == status
    assert "AWS denied sagemaker:ListTrainingJobs in us-east-1 (AccessDeniedException)" in found.detail
    assert "not counting instances already held (running jobs not read: AWS denied" in found.detail


@pytest.mark.parametrize(
    ("config", "spot", "instances"),
    [
        pytest.param({"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 3}, False, 3, id="one-type"),
        pytest.param({"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 3}, True, 0, id="on-demand-job-not-spot"),
        pytest.param({"InstanceType": "ml.p5.48xlarge", "InstanceCount": 3}, False, 0, id="another-type"),
        pytest.param(
            {
                "InstanceGroups": [
                    {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2, "InstanceGroupName": "a"},
                    {"InstanceType": "ml.c5.xlarge", "InstanceCount": 4, "InstanceGroupName": "b"},
                ]
            },
            False,
            2,
            id="heterogeneous-groups",
        ),
        pytest.param(
            {"SelectedInstanceType": "ml.p5.48xlarge", "SelectedInstanceCount": 1, "InstanceCount": 2},
            False,
            0,
            id="preferences-selected-another-type",
        ),
        pytest.param(
            {"SelectedInstanceType": "ml.p4d.24xlarge", "SelectedInstanceCount": 4}, False, 4, id="preferences-selected"
        ),
    ],
)
def test_job_instances(config, spot, instances):
    assert (
        job_instances({"EnableManagedSpotTraining": False, "ResourceConfig": config}, "ml.p4d.24xlarge", spot)
        == instances
    )


def test_group_instances_count_the_target_of_a_growing_group_and_skip_spot_groups():
    described = _cluster(
        "c", [("ml.p5.48xlarge", 2, 4, False), ("ml.p5.48xlarge", 3, 1, False), ("ml.p5.48xlarge", 9, 9, True)]
    )
    assert group_instances(described) == {"ml.p5.48xlarge": 7}


def test_preflight_runs_the_platforms_check_and_no_ec2_check_or_signal(moto_session):
    """Through `preflight` with moto's SageMaker (no training job running): the zone note and the
    training-job quota, no EC2 offering or vCPU finding; and no EC2 capacity signal."""
    stack = _job_stack(purchase="on-demand", catalog_version="v1")
    quotas, _ = _quotas({P4D_JOB: 2.0})
    found = preflight(stack, session=moto_session, quotas=quotas, name="training-a100-sagemaker")
    assert [(f.check, f.status) for f in found] == [("offered", "info"), ("quota", "ok")]
    assert not any("vCPU" in f.detail for f in found)
    assert capacity_signals(stack) == []
