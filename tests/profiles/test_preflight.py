"""Preflight: zone offering and vCPU quota live on AWS (moto EC2, documented quota answers)."""

import boto3
import pytest

from clouds.contract import ClusterConfig
from facts.quotas import aws_family, aws_vcpu_quotas, gcp_gpu_metric
from profiles.preflight.check import PreflightError, catalog_finding, preflight, read_cluster
from tests.aws_live import credentials, quota_answer, stubbed
from tests.clusters import BASE_CLUSTER, example_config

# moto offers p4d.24xlarge in these us-east-1 zone IDs (its recorded offering data).
P4D = {**BASE_CLUSTER, "zone": "use1-az4", "nodes": 2}


def _cluster(**overrides) -> ClusterConfig:
    return ClusterConfig.model_validate({**P4D, **overrides})


def _quotas(code, value, name="quota", missing=False):
    client, stub = stubbed("service-quotas")
    expected = {"ServiceCode": "ec2", "QuotaCode": code}
    if missing:
        stub.add_client_error(
            "get_service_quota",
            service_error_code="NoSuchResourceException",
            http_status_code=400,
            expected_params=expected,
        )
        stub.add_response("get_aws_default_service_quota", quota_answer(code, value, "us-east-1", name), expected)
    else:
        stub.add_response("get_service_quota", quota_answer(code, value, "us-east-1", name), expected)
    return client, stub


def _launch(session, instance_type, count=1, spot=False):
    ec2 = session.client("ec2", region_name="us-east-1")
    image = ec2.register_image(Name="trainstack-test", RootDeviceName="/dev/xvda")["ImageId"]
    market = {"InstanceMarketOptions": {"MarketType": "spot"}} if spot else {}
    ec2.run_instances(ImageId=image, InstanceType=instance_type, MinCount=count, MaxCount=count, **market)


def test_on_demand_within_quota_is_ok(fresh_moto_session):
    quotas, stub = _quotas("L-417A185B", 384.0, "Running On-Demand P instances")
    offered, quota = preflight(_cluster(purchase="on-demand"), session=fresh_moto_session, quotas=quotas)
    assert (offered.status, quota.status) == ("ok", "ok")
    assert quota.detail == (
        "Running On-Demand P instances (L-417A185B) in us-east-1: need 192 vCPUs "
        "(2 x p4d.24xlarge) + 0 in use <= quota 384"
    )
    stub.assert_no_pending_responses()


def test_spot_quota_counts_running_spot_vcpus_of_the_same_family(fresh_moto_session):
    _launch(fresh_moto_session, "p5.48xlarge", spot=True)  # 192 vCPUs, P spot: counted
    _launch(fresh_moto_session, "p4d.24xlarge")  # on-demand: another quota
    _launch(fresh_moto_session, "g5.xlarge", spot=True)  # G spot: another quota
    quotas, _ = _quotas("L-7212CCBC", 256.0, "All P Spot Instance Requests")
    _, quota = preflight(_cluster(purchase="spot"), session=fresh_moto_session, quotas=quotas)
    assert quota.status == "fail"
    assert "need 192 vCPUs (2 x p4d.24xlarge) + 192 in use > quota 256" in quota.detail
    assert quota.fix == (
        "request L-7212CCBC >= 384 vCPUs in us-east-1: aws service-quotas "
        "request-service-quota-increase --service-code ec2 --quota-code L-7212CCBC "
        "--desired-value 384 --region us-east-1"
    )


def test_zone_not_offering_the_type_lists_the_zones_that_do(fresh_moto_session):
    quotas, _ = _quotas("L-7212CCBC", 384.0)
    offered, quota = preflight(_cluster(zone="use1-az3"), session=fresh_moto_session, quotas=quotas)
    assert (offered.status, quota.status) == ("fail", "ok")  # the quota is regional: still checked
    assert offered.detail.startswith("p4d.24xlarge in use1-az3 (us-east-1) is not offered; offered in use1-az")
    assert offered.fix.startswith("set zone to one of use1-az")


def test_quota_never_set_falls_back_to_the_aws_default(fresh_moto_session):
    quotas, stub = _quotas("L-7212CCBC", 0.0, "All P Spot Instance Requests", missing=True)
    _, quota = preflight(_cluster(), session=fresh_moto_session, quotas=quotas)
    assert quota.status == "fail" and "> quota 0" in quota.detail
    stub.assert_no_pending_responses()


def test_quota_api_throttled_is_a_one_line_error(fresh_moto_session):
    quotas, stub = stubbed("service-quotas")
    stub.add_client_error("get_service_quota", service_error_code="TooManyRequestsException", http_status_code=400)
    with pytest.raises(PreflightError, match=r"AWS throttled servicequotas:GetServiceQuota in us-east-1"):
        preflight(_cluster(), session=fresh_moto_session, quotas=quotas)


def test_missing_credentials(monkeypatch):
    credentials(monkeypatch, present=False)
    with pytest.raises(PreflightError, match="AWS credentials not found"):
        preflight(_cluster(), session=boto3.Session(region_name="us-east-1"))


def test_azure_and_gcp_say_what_to_request_without_live_calls():
    # nothing is read live for an on-demand Azure stack (the spot score is for Spot): it says so
    azure, live = preflight(
        example_config("azure", instance_type="Standard_ND96isr_H100_v5", accelerator="H100", purchase="on-demand")
    )
    assert (live.check, live.status) == ("live", "info") and "calls no Azure API for this stack" in live.detail
    assert azure.status == "unknown" and "no Azure quota API" in azure.detail
    assert "192 vCPUs of the VM-family vCPU quota" in azure.detail
    assert "az vm list-usage --location eastus" in azure.fix
    # the GCP example (2 x a3-highgpu-8g spot, 4,800 GiB ZONAL) in us-east4
    (gcp,) = preflight(example_config("gcp", region="us-east4", zone="us-east4-a"))
    assert "16 GPUs of PREEMPTIBLE_NVIDIA_H100_GPUS and 416 vCPUs of CPUS in us-east4" in gcp.detail
    # on-demand counts against the standard GPU quota; flex-start against the preemptible one (Q5)
    (standard,) = preflight(example_config("gcp", region="us-east4", zone="us-east4-a", purchase="on-demand"))
    assert "16 GPUs of NVIDIA_H100_GPUS and" in standard.detail
    flex = example_config("gcp", region="us-east4", zone="us-east4-a", purchase="on-demand", flex_start=True, hours=20)
    flex_quota, flex_live = preflight(flex)  # flex-start takes no reservation: nothing read live
    assert flex_live.check == "live" and "so no credentials are needed" in flex_live.detail
    assert "16 GPUs of PREEMPTIBLE_NVIDIA_H100_GPUS (flex-start VMs consume preemptible quota" in flex_quota.detail


def test_stack_priced_with_an_older_catalog_is_reported():
    old = catalog_finding(_cluster(catalog_version="v1"), "v2")
    assert old.status == "info" and "catalog v1" in old.detail and "current catalog is v2" in old.detail
    assert catalog_finding(_cluster(catalog_version="v2"), "v2").status == "ok"


def test_the_catalog_finding_calls_the_stacks_price_the_nodes_compute():
    # The stack's usd_per_hour is compute only; `plan`'s USD/hour adds the file system (docs/cli.md).
    from clouds.words import usd_rate

    found = catalog_finding(_cluster(catalog_version="v2"), "v2")
    price = _cluster().usd_per_hour
    assert found.detail == (
        f"stack prices its nodes' compute at {usd_rate(price)}/hour (USD; `trainstack plan` adds the file system) "
        "with catalog v2 (the current catalog)"
    )


DATA = {"source": "s3://team-datasets/imagenet/train", "size_gib": 129}


@pytest.mark.parametrize(
    ("overrides", "adds"),
    [
        pytest.param({}, "`trainstack plan` adds the file system", id="file-system"),
        pytest.param(
            {"data": DATA}, "`trainstack plan` adds the file system and the bucket's requests", id="file-system-data"
        ),
        pytest.param(
            {"data": DATA, "purchase": "spot", "on_demand_after_minutes": 30, "job": {"command": "train.py"}},
            "`trainstack plan` adds the file system, the bucket's requests and the on-demand fill of a spot shortfall",
            id="all-three",
        ),
        pytest.param(
            {"file_system": None, "platform": "sagemaker", "job": {"command": "train.py"}},
            "`trainstack plan` prices the same: the stack has no file system or dataset",
            id="sagemaker-training-job",
        ),
    ],
)
def test_the_catalog_finding_says_what_plan_adds_to_the_compute_price(overrides, adds):
    # plan's USD/hour is `ClusterCost`: compute + file system + bucket requests + the spot
    # fallback's fill; a SageMaker training-job stack has none of the three, so nothing is added.
    from profiles.preflight.check import what_plan_adds

    cluster = _cluster(**overrides)
    assert what_plan_adds(cluster) == adds
    assert f"(USD; {adds}) with catalog" in catalog_finding(cluster, cluster.catalog_version).detail


def test_a_hand_edited_node_count_is_priced_as_plan_prices_it():
    # The stack records 2 nodes' price; doubled by hand, `check` must not show the old figure as
    # the stack's price (it said "stack prices its nodes' compute at $<2-node price>").
    from profiles.preflight.check import _catalog_price
    from profiles.stack.price import price_from_catalog

    two = _cluster(catalog_version="v2")
    two = two.model_copy(update={"usd_per_hour": price_from_catalog(two).usd_per_hour})  # as resolve wrote it
    four = two.model_copy(update={"nodes": 4})
    verified, catalog = _catalog_price(four)
    assert verified and catalog == price_from_catalog(four).usd_per_hour
    found = catalog_finding(four, "v2", verified, catalog)
    assert found.status == "info"
    assert f"records ${two.usd_per_hour:g}/hour" in found.detail
    assert f"4 x {four.instance_type} {four.purchase} costs ${catalog:g}/hour" in found.detail
    assert "--write-stack" in found.fix
    # unedited: one price, the recorded one, as before
    assert "stack prices its nodes' compute" in catalog_finding(two, "v2", *_catalog_price(two)).detail


@pytest.mark.parametrize(
    "instance_type, family, on_demand, spot",
    [
        pytest.param("p4d.24xlarge", "p", "L-417A185B", "L-7212CCBC", id="p"),
        pytest.param("g6e.48xlarge", "g", "L-DB2E81BA", "L-3819A6DF", id="g"),
        pytest.param("trn1.32xlarge", "trn", "L-2C3B7624", "L-5480EFD2", id="trn"),
        pytest.param("dl1.24xlarge", "dl", "L-6E869C2A", "L-85EED4F7", id="dl"),
        pytest.param("m5.large", "m", "L-1216C47A", "L-34B43A08", id="standard"),
    ],
)
def test_quota_codes_per_family(instance_type, family, on_demand, spot):
    quotas = aws_vcpu_quotas(instance_type)
    assert (aws_family(instance_type), quotas.on_demand, quotas.spot) == (family, on_demand, spot)


def test_gcp_metrics():
    assert gcp_gpu_metric("A100-80GB", "a2-ultragpu-8g", spot=False) == "NVIDIA_A100_80GB_GPUS"
    assert gcp_gpu_metric("H100", "a3-megagpu-8g", spot=True) == "PREEMPTIBLE_NVIDIA_H100_MEGA_GPUS"
    assert gcp_gpu_metric("tpu-v5p", "tpu-v5p-8", spot=False) is None


@pytest.mark.parametrize(
    "text, message",
    [
        pytest.param(None, "stack file not found", id="missing"),
        pytest.param("config: [", "not valid YAML", id="yaml"),
        pytest.param("config: {}\n", "no `config: trainstack:cluster:` map", id="no-cluster"),
        pytest.param(
            "config:\n  trainstack:cluster: {provider: aws}\n",
            r"trainstack:cluster\.region: required: the region name",
            id="invalid",
        ),
    ],
)
def test_bad_stack_files(tmp_path, text, message):
    path = tmp_path / "Pulumi.x.yaml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(PreflightError, match=message):
        read_cluster(path)


@pytest.mark.parametrize(
    ("purchase", "quota"),
    [
        pytest.param(
            "spot",
            "of Azure ML's low-priority core quota (one value per region, across VM families)",
            id="low-priority",
        ),
        pytest.param(
            "on-demand",
            "of Azure ML's dedicated core quota of Standard_ND96asr_v4's VM family and its total dedicated cores",
            id="dedicated",
        ),
    ],
)
def test_an_azure_ml_stack_is_told_azure_mls_own_quota(purchase, quota):
    """An Azure ML compute cluster counts against Azure ML's quota, not the VMs' vCPU quota
    (facts.quotas Q11): the finding names it, the workspace's list-usage command and where to ask."""
    from tests.cli.helpers import ROOT

    cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100-azureml.yaml")
    (found, *_) = preflight(cluster.model_copy(update={"purchase": purchase}), name="team-aml")
    assert found.check == "quota" and found.status == "unknown"
    assert f"2 x Standard_ND96asr_v4 needs 192 vCPUs {quota} in eastus" in found.detail
    assert "Azure ML compute has its own quota, not the VMs' vCPU quota" in found.detail
    assert found.fix.startswith("compare with `az ml compute list-usage -g team-aml-rg -w team-aml-ws -o table`")
    assert "az vm list-usage" not in found.fix and "Spot (low-priority) vCPU" not in found.detail


@pytest.mark.parametrize(
    ("stack", "platform", "shown"),
    [
        pytest.param("training-ascend-modelarts", None, "Huawei ModelArts", id="modelarts"),
        pytest.param("training-a100-alicloud", "pai", "Alibaba PAI", id="pai"),
        pytest.param("training-a100-tencentcloud", "ti-one", "Tencent TI-ONE", id="ti-one"),
        pytest.param("training-a100-tencentcloud", None, None, id="tencent-vms"),
    ],
)
def test_a_platform_stack_is_told_to_confirm_in_the_platforms_console(stack, platform, shown):
    """A managed platform buys its nodes, so the offline guidance sends its stack to the
    platform's console and quota (finding 7's class), never to the cloud's GPU instance quota."""
    from profiles.preflight.guidance import GUIDANCE
    from tests.cli.helpers import ROOT

    cluster = read_cluster(ROOT / "stacks" / f"Pulumi.{stack}.yaml")
    cluster = cluster.model_copy(update={"platform": platform}) if platform else cluster
    (found,) = GUIDANCE[cluster.provider](cluster, stack)  # the guidance alone: a relabelled pool
    assert found.check == "offered" and found.status == "unknown"
    if shown is None:
        assert found.fix.endswith("that your GPU instance quota covers it")
        return
    assert f"a {shown} pool of 2 x {cluster.instance_type}" in found.detail
    assert found.fix.startswith(f"confirm in the {shown} console that {cluster.zone} offers {cluster.instance_type}")
    assert "GPU instance quota" not in found.fix
