"""The cost of a stack's cluster, part by part (`profiles.cost.cluster_cost`), hand-computed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from clouds.contract import ClusterConfig
from profiles.cost.cluster_cost import cluster_cost
from profiles.spec import SpecError, parse_spec
from tests.clusters import BASE_CLUSTER

# FSx PERSISTENT_2 250 MB/s/TiB: $0.145/GB-month (F5) x 3.71/2.48 (FJ1) = $0.21692/GB-month;
# 4,800 GiB x 1.073741824 GB/GiB x that / 730 h = $1.53147/hour.
FSX_4800_250 = 4800 * 2**30 / 1e9 * 0.145 * 3.71 / 2.48 / 730
DATA = {"source": "s3://team/imagenet/", "size_gib": 2048, "files": 1_280_000}


def config(**changes) -> ClusterConfig:
    return ClusterConfig(**{**BASE_CLUSTER, **changes})


def test_compute_and_file_system_per_hour_and_per_job():
    cost = cluster_cost(config(), 20.5)
    assert cost.storage_usd_per_hour == pytest.approx(1.53147, abs=1e-5)
    assert cost.usd_per_hour == pytest.approx(20.5 + FSX_4800_250)
    assert cost.usd_total == pytest.approx((20.5 + FSX_4800_250) * 72)
    assert cost.hourly_text() == "$22.0315/hour = compute $20.5000 + file system $1.5315"
    assert cost.job_text() == "$1,586.27 per job (72 h) = $1,476.00 compute + $110.27 file system"
    assert cost.left_out == ()


@pytest.mark.parametrize(
    ("data", "usd", "note"),
    [
        # 1,280,000 GETs x $0.0004/1,000 = $0.512; 1,280 LISTs x $0.005/1,000 = $0.0064 (R1, R2)
        pytest.param(DATA, 0.5184, None, id="import-only"),
        # + 40,000 export PUTs x $0.005/1,000 = $0.20
        pytest.param({**DATA, "write_back": True, "written_files": 40_000}, 0.7184, None, id="import-and-export"),
        pytest.param(
            {**DATA, "write_back": True}, 0.5184, "export (write_back) requests not counted", id="exports-unknown"
        ),
        pytest.param({**DATA, "files": None}, None, "give data.files", id="files-unknown"),
    ],
)
def test_bucket_requests_are_counted_or_said_to_be_left_out(data, usd, note):
    cost = cluster_cost(config(data=data), 20.5)
    if usd is None:
        assert cost.requests is None and cost.usd_total == pytest.approx((20.5 + FSX_4800_250) * 72)
    else:
        assert cost.usd_requests == pytest.approx(usd)
        assert cost.usd_total == pytest.approx((20.5 + FSX_4800_250) * 72 + usd)
        assert cost.usd_per_hour == pytest.approx(20.5 + FSX_4800_250 + usd / 72)
        assert f"+ ${usd:,.2f} bucket requests" in cost.job_text()
    assert (note is None) == (not cost.left_out)
    if note:
        assert note in cost.left_out[0]


def test_a_file_system_without_a_recorded_price_counts_at_resolves_estimate_and_says_so():
    # AMLFS 4,800 GiB rounds to 8,192 GiB (8 TiB steps); no Azure price is recorded, so resolve
    # ranks it at the dearest recorded 250 MB/s/TiB price, 0.145 x 3.71 / 2.48 = $0.21691 per
    # GB-month: 8,192 x 1.0737 GB x 0.21691 / 730 = $2.6137/h, and the stack's figures count it.
    azure = config(
        provider="azure", region="eastus", zone="1", instance_type="Standard_ND96asr_v4", purchase="on-demand"
    )
    cost = cluster_cost(azure, 27.2)
    estimate = 8192 * 2**30 / 1e9 * 0.145 * 3.71 / 2.48 / 730
    assert cost.storage_usd_per_hour == pytest.approx(estimate) and cost.storage_estimated
    assert cost.usd_per_hour == pytest.approx(27.2 + estimate)
    assert cost.left_out == (
        "the file system's price on azure is an estimate (no azure price; at the dearest recorded 250 MB/s/TiB "
        "price, $0.217/GB-month), counted as resolve ranked it",
    )
    assert (
        cost.hourly_text()
        == f"${27.2 + estimate:,.4f}/hour = compute $27.2000 + file system ${estimate:,.4f} (estimate)"
    )


def test_a_file_system_the_cloud_cannot_create_is_left_out_and_said_so():
    baidu = config(provider="baiducloud", region="bj", zone="cn-bj-a", instance_type="x", purchase="on-demand")
    cost = cluster_cost(baidu, 27.2)
    assert cost.storage_usd_per_hour is None and cost.usd_per_hour == pytest.approx(27.2)
    assert cost.left_out == ("the file system's price on baiducloud is unknown, so the job total leaves it out",)
    assert cost.hourly_text() == "$27.2000/hour"


def test_a_prepaid_capacity_block_shows_the_file_system_and_says_the_block_was_paid_up_front():
    block = config(
        purchase="on-demand", usd_per_hour=0, reservation={"kind": "capacity-block", "id": "cr-0abc", "nodes": 2}
    )
    cost = cluster_cost(block, 0.0)
    assert cost.usd_per_hour == pytest.approx(FSX_4800_250)  # not $0.00: the FSx runs
    assert cost.hourly_text() == "$1.5315/hour = compute $0.0000 + file system $1.5315"
    assert cost.left_out[-1].startswith("Capacity Block cr-0abc: its fee was paid up front at purchase")


def test_a_capacity_block_with_its_fee_spread_says_where_the_figure_comes_from():
    block = config(
        purchase="on-demand", usd_per_hour=60.0, reservation={"kind": "capacity-block", "id": "cr-0abc", "nodes": 2}
    )
    assert (
        "compute is the stack's $60.0000/hour, the block's up-front fee spread"
        in cluster_cost(block, 60.0).left_out[-1]
    )


def test_unknown_compute_leaves_the_totals_unknown():
    cost = cluster_cost(config(), None)
    assert cost.usd_total is None and cost.usd_per_hour is None and cost.storage_usd_per_hour is not None


def test_written_files_need_write_back():
    with pytest.raises(ValidationError, match="data.written_files: only exports are counted"):
        config(data={**DATA, "written_files": 10})
    base = {"name": "x", "accelerators": "A100:8", "hours": 10}
    with pytest.raises(SpecError, match="data.written_files: only exports are counted"):
        parse_spec({**base, "data": {"source": "s3://team/x", "size": "1TiB", "written_files": "2k"}})
    spec = parse_spec(
        {**base, "data": {"source": "s3://team/x", "size": "1TiB", "write_back": True, "written_files": "2k"}}
    )
    assert spec.data is not None and spec.data.config().written_files == 2000


@pytest.mark.parametrize(
    ("size_gib", "usd"),
    [
        # 1,300 GiB asked, FSx creates 2,400 GiB: it holds 2,048 GiB, so the bucket is read once
        pytest.param(2048, 0.5184, id="created-size-holds-the-data"),
        # 4,096 GiB does not fit in 2,400: 3 passes x 1,280,000 GETs x $0.0004/1,000 + 1,280 LISTs x $0.005/1,000
        pytest.param(4096, 3 * 0.512 + 0.0064, id="every-pass-reads-the-bucket"),
    ],
)
def test_bucket_passes_count_the_capacity_the_cloud_creates_not_the_one_asked(size_gib, usd):
    fs = {"capacity_gib": 1300, "throughput_mbps_per_tib": 250}
    data = {"source": "s3://team/x/", "size_gib": size_gib, "files": 1_280_000, "passes": 3}
    cost = cluster_cost(config(file_system=fs, data=data), 20.5)
    assert cost.usd_requests == pytest.approx(usd)


def test_the_texts_spread_the_bucket_requests_over_the_run():
    # $0.5184 of requests over 72 h = $0.0072/hour
    cost = cluster_cost(config(data=DATA), 20.5)
    assert cost.hourly_text() == (
        f"${20.5 + FSX_4800_250 + 0.0072:,.4f}/hour = compute $20.5000 + file system $1.5315 + bucket requests $0.0072"
    )
    assert cost.job_text() == (
        f"${(20.5 + FSX_4800_250) * 72 + 0.5184:,.2f} per job (72 h) = $1,476.00 compute + $110.27 file system "
        "+ $0.52 bucket requests"
    )


@pytest.mark.parametrize(
    ("data", "usd", "left_out"),
    [
        # 2,048 GiB of 1.6384 MiB files = 1,280,000 files: the same $0.5184 as with `files` given
        pytest.param({**DATA, "files": None, "mean_file_mib": 1.6384}, 0.5184, (), id="files-from-mean-size"),
        pytest.param(
            {**DATA, "files": None},
            None,
            ("bucket request charges not counted: give data.files (or size and mean_file_size)",),
            id="files-unknown",
        ),
        pytest.param(
            {**DATA, "write_back": True},
            0.5184,
            ("export (write_back) requests not counted: give data.written_files (files the job writes)",),
            id="exports-unknown",
        ),
    ],
)
def test_bucket_requests_left_out_say_which_field_counts_them(data, usd, left_out):
    cost = cluster_cost(config(data=data), 20.5)
    assert cost.usd_requests == (None if usd is None else pytest.approx(usd))
    assert cost.left_out == left_out


def test_a_file_system_priced_in_cny_is_converted_at_the_catalogs_rate():
    from tests.clusters import example_config

    # SFS Turbo 250M, 4,915 GiB at 1.310 CNY/GB-month (H1) x 0.14 USD/CNY: $1.3259/hour, a third-party price
    huawei = example_config("huaweicloud")
    assert cluster_cost(huawei, 10.0, usd_per_cny=0.14).storage_usd_per_hour == pytest.approx(
        4915 * 2**30 / 1e9 * 1.310 * 0.14 / 730
    )
    assert not cluster_cost(huawei, 10.0, usd_per_cny=0.14).storage_estimated
    assert cluster_cost(huawei, 10.0).storage_estimated  # no rate: resolve's estimate


def test_helper_vms_are_named_with_their_region_unless_a_platform_runs_the_job():
    from tests.clusters import example_config

    job = {"command": "/fsx/code/train.py"}
    head = example_config("gcp", job=job, purchase="on-demand")
    assert cluster_cost(head, 10.0).left_out[-1] == (
        "the job's head node (n2-standard-2 with a 200 GB boot disk, on-demand, always on) is not in USD/hour or "
        "USD/job: the catalog holds GPU types only; add its on-demand price in us-central1"
    )
    controller = example_config("gcp-tpu", queued_resource=True)
    assert cluster_cost(controller, 10.0).left_out[-1] == (
        "the queued-resource controller VM (e2-small with its image's boot disk, on-demand, always on) is not in "
        "USD/hour or USD/job: the catalog holds GPU types only; add its on-demand price in us-east5"
    )
    pool = example_config("aws", job=job, purchase="on-demand", platform="sagemaker")
    assert cluster_cost(pool, 10.0).left_out == ()


@pytest.mark.parametrize(
    ("usd_per_hour", "ends", "line"),
    [
        pytest.param(
            0,
            None,
            "Capacity Block cr-0abc: its fee was paid up front at purchase (the catalog holds no Capacity Block "
            "prices), so the compute figure is $0.00/hour to pay now, not what the block cost",
            id="prepaid",
        ),
        pytest.param(
            60.0,
            None,
            "Capacity Block cr-0abc: compute is the stack's $60.0000/hour, the block's up-front fee spread over its "
            "hours (the workload's figure; the catalog holds no Capacity Block prices)",
            id="spread",
        ),
        pytest.param(
            60.0,
            "2026-12-10T11:30:00Z",
            "Capacity Block cr-0abc: compute is the stack's $60.0000/hour, the block's up-front fee spread over its "
            "hours (the workload's figure; the catalog holds no Capacity Block prices); hours past the block's end "
            "are in it at the on-demand price (`resolve`)",
            id="spread-with-an-end",
        ),
    ],
)
def test_a_capacity_block_line_says_how_its_compute_figure_was_made(usd_per_hour, ends, line):
    reservation = {"kind": "capacity-block", "id": "cr-0abc", "nodes": 2, **({"ends": ends} if ends else {})}
    block = config(purchase="on-demand", usd_per_hour=usd_per_hour, reservation=reservation)
    assert cluster_cost(block, usd_per_hour).left_out == (line,)
