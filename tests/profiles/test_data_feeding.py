"""A row whose file system cannot feed its GPUs: sized up to one that can when that makes the job
cheapest, kept (with what would) when the workload states the size, or marked I/O bound, on every
cloud that links a bucket; and the file system a row can really get (GCP Filestore sells no tiers).

Hand-computed fixture (AWS, FSx PERSISTENT_2): 1,000 GiB of data (1,073,741.8 MB) read 10 times in
2 h of compute needs 1,073,741.8 x 10 / 7,200 s = 1,491.31 MB/s. Sized from the data the file
system asks 1,250 GiB (FSx creates 2,400). At 250 MB/s per TiB the GPUs need 1,491.31 / 250 x
1,024 = 6,108.4 -> 6,109 GiB, which FSx creates as 7,200 GiB (1,757.8 MB/s): $2.29719/h at the
recorded 250 price (0.21691 USD/GB-month x 7,200 x 1.0737 GB / 730) against $2.30340/h for
1000 MB/s per TiB at 2,400 GiB; both finish in 2 h, so the larger, slower one is $0.012 cheaper.
"""

from __future__ import annotations

import pytest

from profiles.cost.estimate import JobHours
from profiles.costing import candidates
from profiles.data_path.row import data_row
from profiles.spec import parse_spec
from profiles.stack.writer import cluster_config
from tests.profiles.offering_factory import aws_node as _aws_node
from tests.profiles.offering_factory import offering


def aws_node(**fields):
    """A node without local NVMe (`x.test`), so every pass reads the file system."""
    return _aws_node(**{"instance_type": "x.test", **fields})


GB = 2**30 / 1e9
USD_250_AT_7200 = 7200 * GB * 0.145 * 3.71 / 2.48 / 730
USD_1000_AT_2400 = 2400 * GB * 0.6525 / 730


def _spec(source: str = "s3://team/set", passes: float = 10, hours: str = "2h", **extra):
    data = {"source": source, "size": "1000GiB", "files": 1000, "passes": passes, **extra.pop("data", {})}
    return parse_spec({"name": "t", "accelerators": ["A100-80GB:8"], "hours": hours, "data": data, **extra})


def test_the_fixture_prices():
    assert USD_250_AT_7200 == pytest.approx(2.29720, abs=1e-5)
    assert USD_1000_AT_2400 == pytest.approx(2.30340, abs=1e-5)


def test_a_file_system_sized_from_the_data_grows_until_it_feeds_the_gpus():
    row = data_row(_spec(), aws_node(), 2.0, 20.0, None)
    assert row.throughput == 250 and row.capacity_gib == 6109
    assert row.storage is not None and row.storage.capacity_gib == 7200
    assert row.storage.usd_per_hour == pytest.approx(USD_250_AT_7200)
    assert row.hours == pytest.approx(2.0) and not row.io_bound
    kept_hours = 10 * 1000 * 2**30 / 1e6 / (2400 / 1024 * 250) / 3600  # 5.0903 h at 2,400 GiB, 250
    assert (
        "data: file system sized up to 7,200 GiB at 250 MB/s per TiB to feed the GPUs: $44.59 per job (2.00 h) vs "
        f"${kept_hours * (20 + 2400 * GB * 0.145 * 3.71 / 2.48 / 730):,.0f} at 2,400 GiB ({kept_hours:,.2f} h, I/O bound)"
    ) in row.notes


def test_the_stack_asks_for_the_larger_size_the_row_bought():
    spec = _spec()
    (row,) = candidates(spec, aws_node(on_demand_usd_per_hour=10.0), JobHours(2.0), nodes=2)
    assert row.fs_capacity_gib == 6109 and row.usd_total == pytest.approx(2 * (20 + USD_250_AT_7200) + 0.000405)
    config = cluster_config(spec, row, "test")
    assert config.file_system is not None
    assert (config.file_system.capacity_gib, config.file_system.throughput_mbps_per_tib) == (6109, 250)


def test_a_stated_capacity_is_kept_and_the_row_names_the_larger_one():
    row = data_row(_spec(file_system={"capacity": "2400GiB"}), aws_node(), 2.0, 20.0, None)
    assert row.throughput == 1000 and row.capacity_gib is None
    assert row.storage is not None and row.storage.capacity_gib == 2400
    saving = 2 * (USD_1000_AT_2400 - USD_250_AT_7200)
    assert (
        f"data: file_system.capacity 6,109GiB at 250 MB/s per TiB would feed the GPUs and make this job "
        f"${saving:,.2f} cheaper (the same 2.00 h)"
    ) in row.notes


def test_filestore_sells_no_tiers_so_the_row_grows_its_capacity():
    # 90 passes in 10 h need 1,073,741.8 x 90 / 36,000 = 2,684.4 MB/s. Sized from the data
    # (1,250 GiB) GCP offers Filestore ZONAL 1,280 GiB, which reads 1.25 x 260 MiB/s = 340.8 MB/s
    # at any tier asked (C4): a faster tier changes nothing there, so no tier is "raised". At 250
    # the GPUs need 2,684.4 / 250 x 1,024 = 10,996 GiB: Filestore ZONAL 12,800 GiB (2,560 GiB
    # steps above 10 TiB, C1/C4) reads 12.5 x 272.6 = 3,407.9 MB/s and is copied in by one
    # node at its write rate, 12.5 x 88 x 1.048576 = 1,153.4 MB/s: 0.2586 h.
    gcp = offering(provider="gcp", region="us-central1", zone="us-central1-a")
    row = data_row(_spec("gs://team/set", passes=90, hours="10h"), gcp, 10.0, 30.0, None)
    assert row.storage is not None and row.storage.service == "GCP filestore ZONAL"
    assert (row.capacity_gib, row.storage.capacity_gib, row.throughput, row.io_bound) == (10996, 12800, 250, False)
    assert row.hours == pytest.approx(10 + 1000 * 2**30 / 1e6 / (12.5 * 88 * 1.048576) / 3600)
    assert not any("raised to" in n for n in row.notes)


@pytest.mark.parametrize(
    ("node", "source", "extra"),
    [
        pytest.param(aws_node(), "s3://team/set", {}, id="aws-fsx"),
        pytest.param(
            offering(), "https://acct.blob.core.windows.net/data/set", {"resource_group": "rg"}, id="azure-amlfs"
        ),
        pytest.param(
            offering(provider="gcp", region="us-central1", zone="us-central1-a"), "gs://team/set", {}, id="gcp"
        ),
        pytest.param(
            offering(provider="alicloud", region="cn-beijing", zone="cn-beijing"),
            "oss://team/set",
            {},
            id="alicloud-cpfs",
        ),
    ],
)
def test_every_cloud_either_feeds_the_gpus_or_says_it_cannot(node, source, extra):
    # 10 passes in 6 h need 497 MB/s: Alibaba's first pass loads through a 600 MB/s data flow
    fed = data_row(_spec(source, data=extra), node, 6.0, 30.0, 0.14)
    assert not fed.io_bound and not any("I/O bound: +" in n for n in fed.notes)
    # 100,000 passes in 0.05 h need 596,523,235 MB/s: more than 100 PiB (the largest file system a
    # stack holds) at 1,000 MB/s per TiB delivers (102,400,000 MB/s).
    starved = data_row(_spec(source, passes=100_000, data=extra), node, 0.05, 30.0, 0.14)
    assert starved.io_bound and starved.hours > 0.05
    assert any("I/O bound: +" in n for n in starved.notes)


def test_the_first_pass_through_a_data_flow_is_no_faster_than_the_flow():
    # 20,480 GiB of CPFS at 200 MB/s per TiB reads 4,000 MB/s, but the data flow it carries is
    # the smallest spec below that, 600 MB/s (CreateDataFlow), and the first pass loads through
    # it: 1,073,741.8 MB / 600 = 0.49710 h; the other 299 passes read 4,000 MB/s: 22.29506 h.
    from profiles.data_path.sizing import size_data_path

    path = size_data_path(1000, 0, 20480, 200, 30_000, None, True, first_pass_mbps=600.0)
    megabytes = 1000 * 2**30 / 1e6
    assert path.first_pass_rate == 600 and path.starves_gpus
    assert path.hours_with_io(10, 1000, 300) == pytest.approx(megabytes / 600 / 3600 + 299 * megabytes / 4000 / 3600)
    assert path.hours_with_io(10, 1000, 300) == pytest.approx(22.79216, abs=1e-5)
    alibaba = offering(provider="alicloud", region="cn-beijing", zone="cn-beijing")
    row = data_row(
        _spec("oss://team/set", passes=300, hours="10h", file_system={"capacity": "20480GiB", "throughput": 200}),
        alibaba,
        10.0,
        30.0,
        0.14,
    )
    assert row.hours == pytest.approx(22.79216, abs=1e-5) and row.io_bound
    assert any("the first pass loads through the bucket link at 600 MB/s" in n for n in row.notes)
