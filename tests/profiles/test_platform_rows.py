"""Managed-platform rows (`profiles.catalog.platform_rows`) with hand-computed prices: the
platform's factor on the VM price (Azure ML 1.0 sourced, SageMaker 1.15 assumed), spot only where
the platform has it, the platform's own rows converted at the catalog's rate; the resolver's
`platform` constraint, the platform's restart time in the spot estimate, and the spec's word."""

from __future__ import annotations

import re

import pytest

from clouds.platform_lookup import find, platform_problem, platform_words
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import derived, own_rows, platform_row, shown
from profiles.resolver import NoMatchError, resolve
from profiles.spec import SpecError, parse_spec

P4D = Offering(
    "aws",
    "us-east-1",
    "use1-az1",
    "p4d.24xlarge",
    "A100",
    8,
    40.0,
    "SXM",
    96.0,
    1152.0,
    "efa",
    4,
    400.0,
    32.7726,
    12.0,
    "2026-12-01",
    "skypilot-catalog",
)
ND96 = P4D._replace(
    provider="azure",
    region="eastus",
    zone="eastus",
    instance_type="Standard_ND96asr_v4",
    on_demand_usd_per_hour=27.197,
    spot_usd_per_hour=5.4394,
    interconnect="infiniband",
    max_efa_interfaces=0,
)
TC = P4D._replace(
    provider="tencentcloud",
    region="ap-beijing",
    zone="ap-beijing",
    instance_type="GT4.41XLARGE948",
    spot_usd_per_hour=None,
)


def test_sagemaker_row_is_the_ec2_price_times_the_assumed_factor():
    row = platform_row(P4D, find("aws", "sagemaker"))
    assert row.platform == "sagemaker"
    assert row.on_demand_usd_per_hour == 37.68849  # 32.7726 x 1.15
    assert row.spot_usd_per_hour == 13.8  # 12.0 x 1.15: managed spot training
    assert row.catalog_date == "2026-12-01"  # the VM price's observation date
    assert row.price_note.startswith("Amazon SageMaker price 1.15x the VM's: assumed")
    assert shown(row) == ("aws/sagemaker", "ml.p4d.24xlarge")


def test_azure_ml_row_is_billed_at_the_vm_price_with_its_source():
    row = platform_row(ND96, find("azure", "azureml"))
    assert (row.on_demand_usd_per_hour, row.spot_usd_per_hour) == (27.197, 5.4394)
    assert "infracost PR #2902" in row.price_note and not find("azure", "azureml").assumed


def test_a_platform_without_spot_gets_no_spot_price():
    row = platform_row(TC._replace(spot_usd_per_hour=3.0), find("tencentcloud", "ti-one"))
    assert row.spot_usd_per_hour is None and row.on_demand_usd_per_hour == 36.04986  # x 1.1


@pytest.mark.parametrize(
    ("wanted", "platforms"),
    [
        pytest.param("vm", {"vm"}, id="vm-unchanged"),
        pytest.param("sagemaker", {"vm", "sagemaker"}, id="one-platform"),
        pytest.param("any", {"vm", "sagemaker", "hyperpod", "azureml"}, id="any"),
    ],
)
def test_derived_rows_per_wanted_platform(wanted, platforms):
    assert {o.platform for o in derived([P4D, ND96], wanted)} == platforms


def test_sagemaker_offers_only_its_training_families():
    g4 = P4D._replace(instance_type="p2.xlarge")
    assert [o.platform for o in derived([g4], "any")] == ["vm"]


def test_modelarts_row_converted_at_the_catalog_rate():
    (row,) = own_rows(("huaweicloud",), {"CNY": {"per_usd": 6.8012}})
    assert row.on_demand_usd_per_hour == round(155.98 / 6.8012, 6) == 22.934188
    assert (row.accelerator, row.accelerator_count, row.platform) == ("Ascend 910B", 8, "modelarts")
    assert row.price_note.startswith("estimate:")
    assert own_rows(("huaweicloud",), {}) == []  # no rate: left out, like a CNY catalog row


def _spec(**extra):
    base = {"name": "w", "accelerators": ["A100:8"], "nodes": 2, "hours": "10h", "providers": ["aws"]}
    return parse_spec({**base, **extra})


def test_resolver_ranks_the_managed_row_at_its_price():
    res = resolve(_spec(platform="any"), [P4D])
    rows = {r.candidate.offering.platform: r for r in (res.choice, *res.alternatives)}
    assert rows["vm"].candidate.usd_total == pytest.approx(32.7726 * 2 * 10)
    assert rows["sagemaker"].candidate.usd_total == pytest.approx(37.68849 * 2 * 10)
    assert "on Amazon SageMaker: adds no idle nodes" in rows["sagemaker"].reason


@pytest.mark.parametrize(("hours", "jobs"), [("672h", None), ("673h", 2), ("2000h", 3)])
def test_a_sagemaker_job_longer_than_28_days_is_said_to_run_as_several(hours, jobs):
    """CreateTrainingJob stops a job at 28 days (672 h): a longer one is priced in full and its
    row says how many jobs it takes; the VM row beside it runs as one."""
    res = resolve(_spec(platform="any", hours=hours), [P4D])
    rows = {r.candidate.offering.platform: r.candidate for r in (res.choice, *res.alternatives)}
    said = [n for n in rows["sagemaker"].notes if "Amazon SageMaker stops a job at 672 h" in n]
    if jobs is None:
        assert said == []
    else:
        assert len(said) == 1 and f"run as {jobs} jobs, each resuming from the last one's checkpoints" in said[0]
    assert not any("stops a job" in n for n in rows["vm"].notes)


def test_spot_estimate_uses_the_platforms_restart_time():
    spec = _spec(
        platform="sagemaker", purchase="spot", spot={"checkpoint_interval": "1h", "interruptions_per_node_month": 73}
    )
    res = resolve(spec, [P4D])
    c = res.choice.candidate
    assert c.offering.platform == "sagemaker"
    # 73/node-month = 0.1/node-hour; 2 nodes x 10 h -> 2 interruptions (first order); each costs
    # half a checkpoint interval of lost work + SageMaker's 0.25 h restart (assumed)
    assert any("Amazon SageMaker: on interruption SageMaker restarts the training job" in n for n in c.notes)
    assert c.interruptions == pytest.approx(2.0)  # 10 h x 2 nodes x 73 / 730
    assert c.added_hours == pytest.approx(1.5)  # 2 x (1 h / 2 + 0.25 h)


def test_platform_field_refuses_a_row_of_another_platform():
    with pytest.raises(NoMatchError, match="'platform' removed the last"):
        resolve(_spec(platform="azureml"), [P4D])


def test_unknown_platform_word_is_refused_in_one_line():
    with pytest.raises(SpecError, match="platform: .*'vertex' is not a platform trainstack knows; use vm, azureml"):
        _spec(platform="vertex")
    assert platform_words() == (
        "vm",
        "azureml",
        "hyperpod",
        "modelarts",
        "pai",
        "pai-lingjun",
        "sagemaker",
        "ti-one",
        "any",
    )


@pytest.mark.parametrize(
    ("provider", "platform", "says"),
    [
        pytest.param("aws", "azureml", "does not run on aws (it is azure's)", id="another-clouds"),
        pytest.param("tencentcloud", "ti-one", None, id="ti-one-pool"),
        pytest.param("aws", None, None, id="vm"),
        pytest.param("azure", "sm", "does not run on azure (valid on azure: vm, azureml)", id="unknown-lists-its-own"),
        pytest.param("baiducloud", "pai", "does not run on baiducloud (it is alicloud's)", id="another-clouds-china"),
        pytest.param("baiducloud", "x", "does not run on baiducloud (valid on baiducloud: vm)", id="none-of-its-own"),
    ],
)
def test_stack_platform_problem(provider, platform, says):
    problem = platform_problem(provider, platform)
    assert (problem is None) if says is None else (says in problem)


def test_a_platform_without_a_pool_is_priced_for_comparison_only(monkeypatch):
    import dataclasses

    import clouds.platform_lookup as lookup

    no_pool = dataclasses.replace(find("tencentcloud", "ti-one"), pool="")
    monkeypatch.setattr(lookup, "find", lambda provider, name: no_pool)
    assert "builds no Tencent TI-ONE pool yet" in str(platform_problem("tencentcloud", "ti-one"))


def test_hyperpod_row_is_on_demand_only_at_the_assumed_factor():
    row = platform_row(P4D, find("aws", "hyperpod"))
    assert row.on_demand_usd_per_hour == 37.68849  # 32.7726 x 1.15, assumed
    assert row.spot_usd_per_hour is None  # spot instance groups: EKS clusters only (documented)
    assert shown(row) == ("aws/hyperpod", "ml.p4d.24xlarge")
    assert "for as long as the cluster holds it" in row.price_note


def test_hyperpod_keeps_the_workloads_file_system_and_prices_it():
    fs = {"file_system": {"capacity": "4800GiB", "throughput_mbps_per_tib": 250}}
    on_pool = resolve(_spec(platform="hyperpod", **fs), [P4D]).choice.candidate
    on_vm = resolve(_spec(**fs), [P4D]).choice.candidate
    assert on_pool.offering.platform == "hyperpod"
    assert not any(n.startswith("file system: none") for n in on_pool.notes)
    # the same FSx for the same hours: the pool costs the VM row's file system plus 15 % on compute
    assert on_pool.usd_total - on_vm.usd_total == pytest.approx((37.68849 - 32.7726) * 2 * 10, abs=0.01)
    sage = resolve(_spec(platform="sagemaker", **fs), [P4D]).choice.candidate
    assert any(n.startswith("file system: none") for n in sage.notes)


def test_hyperpod_rows_are_left_out_for_a_job_trainstack_cannot_submit():
    from profiles.stack.writer import cluster_config
    from trainstack.run import RunError
    from trainstack.run.command import submitter

    with pytest.raises(NoMatchError, match="job: trainstack submits no job to SageMaker HyperPod yet"):
        resolve(_spec(platform="hyperpod", job={"command": "train.py"}), [P4D])
    spec = _spec(platform="hyperpod")
    config = cluster_config(spec, resolve(spec, [P4D]).choice.candidate, "v")
    assert config.platform == "hyperpod" and config.purchase == "on-demand"
    with pytest.raises(RunError, match="^platform: SageMaker HyperPod has no job submitter yet$"):
        submitter(config)


def test_a_spot_only_row_on_an_on_demand_platform_explains_not_crashes():
    # A VM row sold only as spot (no on-demand price) has a HyperPod copy with no price at all:
    # the "nearest" list ranks it last and the refusal names the constraint (it crashed in min()).
    p5 = P4D._replace(instance_type="p5.48xlarge", accelerator="H100", on_demand_usd_per_hour=55.04)
    spot_only = p5._replace(zone="use1-az2", on_demand_usd_per_hour=None)
    spec = _spec(platform="hyperpod", accelerators=["H100:8"], job={"command": "train.py"})
    with pytest.raises(
        NoMatchError,
        match="^no offering matches: 'job' removed the last 1 candidates .job: trainstack submits no job to SageMaker HyperPod yet",
    ):
        resolve(spec, [p5, spot_only])
    with pytest.raises(NoMatchError, match="^no offering matches: 'price' removed the last 1 candidates;"):
        resolve(_spec(platform="hyperpod", accelerators=["H100:8"]), [spot_only])


@pytest.mark.parametrize(
    ("platform", "row", "job", "says"),
    [
        ("sagemaker", P4D, {"command": "train.py -v --epochs 10"}, "job.command: '-v' is not --key value"),
        ("sagemaker", P4D, {"command": "train.py --epochs 10 extra"}, "job.command: 'extra' is not --key value"),
        ("ti-one", TC, {"command": "train.py"}, "job.code: ti-one runs the job's code from cos://"),
        ("ti-one", TC, {"command": "train.py", "code": "s3://b/c/"}, "job.code: s3://b/c/ is not a cos://BUCKET"),
        ("ti-one", TC, {"command": "train.py", "code": "cos://b/c/"}, "job.image: ti-one needs the job's PyTorch"),
    ],
)
def test_a_job_run_would_refuse_is_refused_by_resolve_and_the_stack_check(platform, row, job, says):
    # one rule (`clouds.platform_job.job_problem`): resolve leaves the row out naming the field,
    # plan/--write-stack refuse the stack, and run refuses it with the same line
    from clouds.config import ConfigError
    from clouds.job_config import JobConfig
    from clouds.platform_job import stack_job_problem
    from profiles.stack.file import validate_cluster
    from profiles.stack.writer import cluster_config

    spec = _spec(platform=platform, providers=[row.provider], job=job)
    with pytest.raises(NoMatchError, match=f"'job' removed the last 1 candidates \\({re.escape(says)}"):
        resolve(spec, [row])
    good = {"sagemaker": {}, "ti-one": {"code": "cos://b/c/", "image": "torch1.9-py3.8-cuda11.1-gpu"}}[platform]
    runnable = _spec(platform=platform, providers=[row.provider], job={"command": "train.py", **good})
    config = cluster_config(runnable, resolve(runnable, [row], top=1).choice.candidate, "v")
    stack = config.model_copy(update={"job": JobConfig.model_validate(job)})
    assert stack_job_problem(stack) is not None and says in str(stack_job_problem(stack))
    assert stack_job_problem(config) is None
    with pytest.raises(ConfigError, match=re.escape(says)):  # as plan, check and --write-stack read the stack
        validate_cluster(stack.model_dump(mode="json", exclude_none=True), row.region, "v")


def test_platform_any_with_a_job_and_no_file_system_leaves_out_only_the_vm_rows():
    spec = _spec(platform="any", providers=["aws", "gcp"], job={"command": "train.py --epochs 3"})
    res = resolve(spec, [P4D])
    assert {r.candidate.offering.platform for r in (res.choice, *res.alternatives)} == {"sagemaker"}
    assert res.rejected["job"] == (
        2,  # the VM row and its HyperPod copy (which trainstack submits no job to)
        "job: needs a file_system for its checkpoints and logs; add file_system or remove job, or keep to the "
        "managed platforms' rows (`platform`)",
    )
    a2 = P4D._replace(provider="gcp", region="us-central1", zone="us-central1-a", instance_type="a2-highgpu-8g")
    with pytest.raises(NoMatchError, match=re.escape("(job: needs a file_system for its checkpoints and logs;")):
        resolve(spec, [a2])  # a cloud with no platform: only VM rows, each left out
    with pytest.raises(SpecError, match="job: needs a file_system"):  # VM rows only: refused as written
        _spec(job={"command": "train.py"})


@pytest.mark.parametrize("platform", ["hyperpod", "sagemaker"])
def test_a_platform_pick_is_written_with_no_fallback_types_or_zones(platform):
    """A platform's pool is one type in one place (a HyperPod instance group refuses fallbacks):
    the H100 and H200 rows in other zones are ranked but never written beside the pick."""
    from profiles.stack.writer import cluster_config

    p5 = P4D._replace(instance_type="p5.48xlarge", accelerator="H100", on_demand_usd_per_hour=55.04)
    p5en = p5._replace(instance_type="p5en.48xlarge", accelerator="H200", on_demand_usd_per_hour=63.30)
    rows = [p5, p5._replace(zone="use1-az2", on_demand_usd_per_hour=56.0), p5en]
    spec = _spec(platform=platform, accelerators=["H100:8", "H200:8"], interconnect="none")
    res = resolve(spec, rows)
    ranked = tuple(r.candidate for r in (res.choice, *res.alternatives))
    assert {c.offering.instance_type for c in ranked} == {"p5.48xlarge", "p5en.48xlarge"}
    assert len(ranked) == (2 if platform == "sagemaker" else 3)  # a training job's rows are one per region
    config = cluster_config(spec, res.choice.candidate, "v", ranked)
    assert (config.platform, config.fallback_types, config.fallback_zones) == (platform, (), ())
