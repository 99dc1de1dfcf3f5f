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
from facts.quotas import HYPERPOD_PER_CLUSTER, HYPERPOD_TOTAL, TRAINING_JOBS_TOTAL
from profiles.preflight import aws_sagemaker as sm
from profiles.preflight.aws_sagemaker_usage import group_instances, job_instances
from profiles.preflight.check import PreflightError, preflight
from profiles.preflight.signals import capacity_signals
from tests.aws_live import stubbed
from tests.clusters import example_config

REGION = "us-east-1"
P4D, P5 = "ml.p4d.24xlarge", "ml.p5.48xlarge"
P4D_JOB, P4D_SPOT = "ml.p4d.24xlarge for training job usage", "ml.p4d.24xlarge for spot training job usage"
P4D_CLUSTER, CONTROLLER = "ml.p4d.24xlarge for cluster usage", "ml.m5.xlarge for cluster usage"
CODES = {
    P4D_JOB: "L-TESTJOB1",
    P4D_SPOT: "L-TESTSPOT1",
    P4D_CLUSTER: "L-TESTHP1",
    CONTROLLER: "L-TESTHP2",
    TRAINING_JOBS_TOTAL: "L-TESTJOBS",
    HYPERPOD_TOTAL: "L-TESTHPALL",
    HYPERPOD_PER_CLUSTER: "L-TESTHPONE",
}
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
    """A service-quotas client: ListServiceQuotas in two pages of at most 100 (others first, then
    `applied`), then, when `defaults` is given (a name was not in `applied`),
    ListAWSDefaultServiceQuotas in one page."""
    client, stub = stubbed("service-quotas")
    asked = {"ServiceCode": "sagemaker", "MaxResults": 100}
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
            {},
            [],
            [],
            "ok",
            f"'{P4D_JOB}' (L-TESTJOB1) in us-east-1: need 2 instances (2-instance training job) + 0 held "
            "(by 0 training job(s) running or in a warm pool) <= quota 4",
            None,
            id="on-demand-within-quota",
        ),
        pytest.param(
            _job_stack(purchase="on-demand"),
            {P4D_JOB: 3.0},
            {},
            [_job("other", "ml.p4d.24xlarge", 1, False), _job("spot-one", "ml.p4d.24xlarge", 4, True)],
            [_job("kept", "ml.p4d.24xlarge", 1, False)],
            "fail",
            f"'{P4D_JOB}' (L-TESTJOB1) in us-east-1: need 2 instances (2-instance training job) + 2 held "
            "(by 2 training job(s) running or in a warm pool) > quota 3; SageMaker refuses it "
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
            "(by 0 training job(s) running or in a warm pool) > quota 0; SageMaker refuses it "
            "(ResourceLimitExceeded) until raised",
            1,
            id="never-set-falls-back-to-the-default-0",
        ),
        pytest.param(
            _job_stack(purchase="spot"),
            {P4D_JOB: 8.0, P4D_SPOT: 4.0},
            {},
            [_job("on-demand", "ml.p4d.24xlarge", 4, False), _job("spot", "ml.p4d.24xlarge", 2, True)],
            [],
            "ok",
            f"'{P4D_SPOT}' (L-TESTSPOT1) in us-east-1: need 2 instances (2-instance managed spot training job) + 2 "
            "held (by 1 managed spot training job(s) running or in a warm pool) <= quota 4",
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
    quotas, quota_stub = _quotas({P4D_CLUSTER: 4.0, CONTROLLER: 2.0, HYPERPOD_TOTAL: 6.0, HYPERPOD_PER_CLUSTER: 20.0})
    sagemaker, stub = stubbed("sagemaker")
    summaries = [
        {k: c[k] for k in ("ClusterArn", "ClusterName", "ClusterStatus", "CreationTime")} for c in (own, other, failed)
    ]
    stub.add_response("list_clusters", {"ClusterSummaries": summaries}, {})
    stub.add_response("describe_cluster", other, {"ClusterName": "team-b"})
    placed, workers, controller, total, per_cluster = sm.read_hyperpod(_pod_stack(), quotas, sagemaker, "training-a100")
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
    # every type together (Q10): 3 instances + the other cluster's 4 (1 m5, 3 p4d; not its Spot group)
    assert (total.status, total.detail) == (
        "fail",
        f"'{HYPERPOD_TOTAL}' (L-TESTHPALL) in us-east-1: need 3 instances (the cluster's 3 instances, controller "
        f"included) + 4 held {held} > quota 6; SageMaker refuses it (ResourceLimitExceeded) until raised",
    )
    assert total.fix == _fix("L-TESTHPALL", 7)
    assert (per_cluster.status, per_cluster.detail) == (
        "ok",
        f"'{HYPERPOD_PER_CLUSTER}' (L-TESTHPONE) in us-east-1: need 3 instances (the cluster's 3 instances, "
        "controller included) <= quota 20",
    )
    quota_stub.assert_no_pending_responses()
    stub.assert_no_pending_responses()


def test_the_training_jobs_total_counts_every_type_the_per_type_quota_only_its_own():
    quotas, quota_stub = _quotas({P4D_JOB: 8.0, TRAINING_JOBS_TOTAL: 4.0})  # both found: no default list
    running = [
        _job("p4d", "ml.p4d.24xlarge", 1, False),
        _job("g5", "ml.g5.xlarge", 2, False),
        _job("spot", "ml.p4d.24xlarge", 3, True),  # the spot quotas'
    ]
    sagemaker, jobs_stub = _sagemaker(running)
    _, own, total = sm.read_training_job(_job_stack(purchase="on-demand"), quotas, sagemaker)
    held = "(by 2 training job(s) running or in a warm pool)"
    assert (own.status, own.detail) == (
        "ok",
        f"'{P4D_JOB}' (L-TESTJOB1) in us-east-1: need 2 instances (2-instance training job) + 1 held {held} <= quota 8",
    )
    assert (total.status, total.fix) == ("fail", _fix("L-TESTJOBS", 5))
    assert total.detail.startswith(
        f"'{TRAINING_JOBS_TOTAL}' (L-TESTJOBS) in us-east-1: need 2 instances (2-instance training job) + 3 held {held} "
        "> quota 4"
    )
    quota_stub.assert_no_pending_responses()
    jobs_stub.assert_no_pending_responses()


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
    quotas, _ = _quotas({P4D_SPOT: quota}, {})
    sagemaker, stub = stubbed("sagemaker")
    stub.add_client_error("list_training_jobs", service_error_code="AccessDeniedException", http_status_code=400)
    _, found = sm.read_training_job(_job_stack(), quotas, sagemaker)
    assert found.status == status
    assert "AWS denied sagemaker:ListTrainingJobs in us-east-1 (AccessDeniedException)" in found.detail
    assert "not counting instances already held (running jobs not read: AWS denied" in found.detail


@pytest.mark.parametrize(
    ("config", "spot", "instances"),
    [
        pytest.param({"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 3}, False, {P4D: 3}, id="one-type"),
        pytest.param({"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 3}, True, {}, id="on-demand-job-not-spot"),
        pytest.param({"InstanceType": "ml.p5.48xlarge", "InstanceCount": 3}, False, {P5: 3}, id="another-type"),
        pytest.param(
            {
                "InstanceGroups": [
                    {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2, "InstanceGroupName": "a"},
                    {"InstanceType": "ml.c5.xlarge", "InstanceCount": 4, "InstanceGroupName": "b"},
                ]
            },
            False,
            {P4D: 2, "ml.c5.xlarge": 4},
            id="heterogeneous-groups",
        ),
        pytest.param(
            {"SelectedInstanceType": "ml.p5.48xlarge", "SelectedInstanceCount": 1, "InstanceCount": 2},
            False,
            {P5: 1},
            id="preferences-selected-another-type",
        ),
        pytest.param(
            {"SelectedInstanceType": "ml.p4d.24xlarge", "SelectedInstanceCount": 4},
            False,
            {P4D: 4},
            id="preferences-selected",
        ),
    ],
)
def test_job_instances(config, spot, instances):
    assert job_instances({"EnableManagedSpotTraining": False, "ResourceConfig": config}, spot) == instances


def test_group_instances_count_the_target_of_a_growing_group_and_skip_spot_groups():
    described = _cluster(
        "c", [("ml.p5.48xlarge", 2, 4, False), ("ml.p5.48xlarge", 3, 1, False), ("ml.p5.48xlarge", 9, 9, True)]
    )
    assert group_instances(described) == {"ml.p5.48xlarge": 7}


def test_preflight_runs_the_platforms_check_and_no_ec2_check_or_signal(moto_session):
    """Through `preflight` with moto's SageMaker (no training job running): the zone note and the
    training-job quota, no EC2 offering or vCPU finding; and no EC2 capacity signal."""
    stack = _job_stack(purchase="on-demand", catalog_version="v1")
    quotas, _ = _quotas({P4D_JOB: 2.0}, {})
    found = preflight(stack, session=moto_session, quotas=quotas, name="training-a100-sagemaker")
    assert [(f.check, f.status) for f in found] == [("offered", "info"), ("quota", "ok")]
    assert not any("vCPU" in f.detail for f in found)
    assert capacity_signals(stack) == []
