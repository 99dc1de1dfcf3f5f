"""The data terms of a row: the throughput tier that makes the job cheapest, and the bucket's
request charges, with hand-computed values.

Fixture: FSx PERSISTENT_2 at 2,400 GiB (= 2,576.98 GB), no local NVMe, 1,000 GiB of data read
10 times. Per tier (MB/s per TiB): delivered 2,400/1,024 x tier MB/s; one pass of 1,073,741.8 MB
takes 0.50903 h at 250, 0.25452 h at 500, 0.12726 h at 1000; file-system USD/h =
2,576.98 GB x price / 730 with the recorded prices 0.21691 (250), 0.36191 (500), 0.6525 (1000)
USD/GB-month (`facts.storage_prices`): $0.76573, $1.27759, $2.30340 per hour.
"""

from __future__ import annotations

import pytest

from facts.limits import MAX_FILE_SYSTEM_GIB
from profiles.catalog.offering import Offering
from profiles.cost.estimate import JobHours
from profiles.costing import candidates
from profiles.data_path.row import data_row, sized_up
from profiles.spec import parse_spec
from profiles.stack.writer import cluster_config

GB = 2400 * 2**30 / 1e9
FS_USD_PER_HOUR = {250: GB * 0.145 * 3.71 / 2.48 / 730, 500: GB * 0.145 * 6.19 / 2.48 / 730, 1000: GB * 0.6525 / 730}
PASS_HOURS = {tier: 1000 * 2**30 / 1e6 / (2400 / 1024 * tier) / 3600 for tier in (250, 500, 1000)}
OFFERING = Offering(
    "aws", "us-east-1", "use1-az1", "x.test", "A100", 8, 40.0, "SXM", 96, 1152, "efa", 4, 400, 10.0, None, "d"
)


def _spec(throughput: int | None = None, files: int | None = 1000, passes: float = 10):
    fs: dict = {"capacity": "2400GiB"}
    if throughput is not None:
        fs["throughput"] = throughput
    data = {"source": "s3://team-data/x", "size": "1000GiB", "passes": passes}
    if files is not None:
        data["files"] = files
    return parse_spec({"name": "t", "accelerators": ["A100:8"], "hours": "2h", "file_system": fs, "data": data})


def test_the_fixture_prices():
    assert FS_USD_PER_HOUR[250] == pytest.approx(0.76573, abs=1e-5)
    assert FS_USD_PER_HOUR[1000] == pytest.approx(2.30340, abs=1e-5)
    assert PASS_HOURS[250] == pytest.approx(0.50903, abs=1e-5)


def test_an_io_bound_row_buys_the_tier_that_makes_the_job_cheapest():
    # $20/h of compute, 2 h of compute, 10 passes without a cache:
    #   250: max(2, 10 x 0.50903) = 5.0903 h x (20 + 0.76573) = $105.70
    #   500: 2.5452 h x (20 + 1.27759) = $54.16;  1000: max(2, 1.2726) = 2 h x 22.3034 = $44.61
    row = data_row(_spec(), OFFERING, 2.0, 20.0, None)
    assert row.throughput == 1000
    assert row.hours == pytest.approx(2.0)
    assert row.storage is not None and row.storage.usd_per_hour == pytest.approx(FS_USD_PER_HOUR[1000])
    assert row.usd(20.0) == pytest.approx(2 * (20 + FS_USD_PER_HOUR[1000]))
    kept_usd = 10 * PASS_HOURS[250] * (20 + FS_USD_PER_HOUR[250])
    assert kept_usd == pytest.approx(105.70, abs=0.01)
    assert (
        "data: file system raised to 1000 MB/s per TiB: $44.61 per job (2.00 h) vs $106 at 250 (5.09 h, I/O bound)"
        in (row.notes)
    )


def test_a_short_wait_keeps_the_cheaper_tier_and_says_what_faster_would_cost():
    # $1/h, 5 h of compute: 250 gives 5.0903 h x 1.76573 = $8.99; 500 gives 5 h x 2.27759 = $11.39
    row = data_row(_spec(), OFFERING, 5.0, 1.0, None)
    assert row.throughput == 250
    assert row.hours == pytest.approx(10 * PASS_HOURS[250])
    assert row.wait_hours == pytest.approx(10 * PASS_HOURS[250] - 5)
    extra = 5 * (1 + FS_USD_PER_HOUR[500]) - 10 * PASS_HOURS[250] * (1 + FS_USD_PER_HOUR[250])
    assert extra == pytest.approx(2.40, abs=0.01)
    assert row.notes[-2] == (
        "data: kept 250 MB/s per TiB: 500 would end the I/O wait sooner (5.00 h) but cost $2.40 more per job"
    )


def test_a_difference_under_a_dollar_is_shown_to_the_cent():
    # $22.80/h, 5 h of compute: 250 gives 5.0903 h x 23.56573 = $119.96; 500 gives 5 h x 24.07759
    # = $120.39, $0.43 more (whole dollars said "$0 more"); 1000 gives 5 h x 25.1034 = $125.52
    row = data_row(_spec(), OFFERING, 5.0, 22.8, None)
    extra = 5 * (22.8 + FS_USD_PER_HOUR[500]) - 10 * PASS_HOURS[250] * (22.8 + FS_USD_PER_HOUR[250])
    assert row.throughput == 250 and extra == pytest.approx(0.43, abs=0.005)
    assert "500 would end the I/O wait sooner (5.00 h) but cost $0.43 more per job" in row.notes[-2]


def test_a_stated_tier_is_kept_and_the_row_names_the_cheaper_one():
    row = data_row(_spec(throughput=250), OFFERING, 2.0, 20.0, None)
    assert row.throughput == 250 and row.hours == pytest.approx(10 * PASS_HOURS[250])
    saving = 10 * PASS_HOURS[250] * (20 + FS_USD_PER_HOUR[250]) - 2 * (20 + FS_USD_PER_HOUR[1000])
    assert saving == pytest.approx(61.0977, abs=1e-4)
    assert (
        "data: file_system.throughput 1000 would make this job $61.10 cheaper (2.00 h instead of 5.09 h); "
        "set file_system.throughput: 1000"
    ) in row.notes


def test_a_row_that_keeps_up_changes_nothing():
    # 40 h of compute: 10 passes x 0.509 h = 5.1 h of reads fit in it.
    row = data_row(_spec(), OFFERING, 40.0, 20.0, None)
    assert row.throughput == 250 and row.hours == 40.0 and row.wait_hours == 0
    assert not any("raised" in n or "kept" in n for n in row.notes)


def test_request_charges_join_the_row_and_the_job_cost():
    # 1,000 files: 1,000 GETs x $0.0004/1,000 + 1 LIST x $0.005/1,000 = $0.000405
    row = data_row(_spec(), OFFERING, 40.0, 20.0, None)
    assert row.usd_requests == pytest.approx(0.000405)
    assert row.notes[-1].startswith("data: bucket requests $0.00 (1,000 GETs + 1 LISTs, Amazon S3 Standard us-east-1")
    unknown = data_row(_spec(files=None), OFFERING, 40.0, 20.0, None)
    assert unknown.usd_requests is None
    assert unknown.notes[-1] == "data: bucket request charges not counted: give data.files (or size and mean_file_size)"


def test_the_candidate_costs_the_chosen_tier_and_the_stack_writes_it():
    spec = _spec()
    job = JobHours(hours=2.0, notes=())
    (on_demand,) = candidates(spec, OFFERING._replace(on_demand_usd_per_hour=10.0), job, nodes=2)
    assert on_demand.throughput == 1000 and on_demand.hours == pytest.approx(2.0)
    assert on_demand.usd_requests == pytest.approx(0.000405)
    assert on_demand.usd_total == pytest.approx(2 * 20 + 2 * FS_USD_PER_HOUR[1000] + 0.000405)
    config = cluster_config(spec, on_demand, "test")
    assert config.file_system is not None and config.file_system.throughput_mbps_per_tib == 1000


def test_at_the_fastest_tier_only_capacity_helps():
    # 0.5 h of compute: even 1000 MB/s per TiB (10 x 0.127 h = 1.27 h of reads) keeps the job I/O bound.
    row = data_row(_spec(), OFFERING, 0.5, 20.0, None)
    assert row.throughput == 1000 and row.hours == pytest.approx(10 * PASS_HOURS[1000])
    assert any(
        n.endswith("1000 MB/s per TiB is the fastest tier here: more file_system.capacity feeds the GPUs")
        for n in row.notes
    )
    assert not any("more file_system.throughput" in n for n in row.notes)
    stated = data_row(_spec(throughput=1000), OFFERING, 0.5, 20.0, None)
    assert any("1000 MB/s per TiB is the fastest tier here" in n for n in stated.notes)


# `_tier_choice` on hand-made rows: which row keeps the generic "more throughput or capacity"
# advice and which says its tier is the fastest the cloud sells.
GENERIC = "data: I/O bound; more file_system.throughput (MB/s per TiB) or capacity feeds the GPUs"


def _row(tier: int, hours: float, wait: float, usd_per_hour: float = 1.0):
    from profiles.cost.storage import StorageCost
    from profiles.data_path.terms import DataRow

    storage = StorageCost("FSx", 2400, usd_per_hour, "list price", "test")
    return DataRow(hours, storage, tier, (GENERIC,), wait_hours=wait)


def _fastest(tier: int) -> str:
    return f"data: I/O bound; {tier} MB/s per TiB is the fastest tier here: more file_system.capacity feeds the GPUs"


@pytest.mark.parametrize(
    ("rows", "best", "first_note"),
    [
        # the kept tier is cheapest but faster tiers exist: the generic advice stays
        pytest.param(((125, 10, 1),), 0, GENERIC, id="kept-with-faster"),
        # nothing faster: the kept tier is the fastest
        pytest.param((), 0, _fastest(125), id="kept-fastest"),
        # the last faster tier, still waiting: the fastest tier
        pytest.param(((250, 9, 1), (500, 8, 1), (1000, 7, 1)), 3, _fastest(1000), id="last-waits"),
        # the last faster tier, no longer waiting: nothing to add
        pytest.param(((250, 9, 1), (500, 8, 1), (1000, 7, 0)), 3, GENERIC, id="last-fed"),
        # a middle tier, still waiting: faster ones exist
        pytest.param(((250, 9, 1), (500, 8, 1), (1000, 7, 1)), 2, GENERIC, id="middle-waits"),
    ],
)
def test_the_fastest_tier_hint_only_on_the_fastest_tier_that_still_waits(rows, best, first_note):
    from profiles.data_path.row import _tier_choice

    kept = _row(125, 11, 2)
    faster = [_row(*r) for r in rows]
    chosen = [kept, *faster][best]
    row = _tier_choice(kept, faster, chosen, False, 10.0)
    assert row.throughput == chosen.throughput
    assert row.notes[0] == first_note


@pytest.mark.parametrize(
    ("hours", "tier", "key"),
    [
        # (10 + 1) $/h x 1.23456789 h = $13.58024679, to the micro-dollar; then the cheaper tier
        pytest.param(1.23456789, 250, (13.580247, 250), id="micro-dollars"),
        pytest.param(2.0, None, (22.0, 0), id="no-tier-sorts-first"),
    ],
)
def test_rows_rank_by_job_cost_to_the_micro_dollar_then_by_tier(hours, tier, key):
    from dataclasses import replace

    from profiles.data_path.row import _cost

    assert _cost(replace(_row(250, hours, 0), throughput=tier), 10.0) == key


@pytest.mark.parametrize(
    ("throughput", "tier", "label"),
    [
        (None, 125, "the cloud's nearest to the default"),
        (None, 250, "default"),
        (None, 500, "chosen"),
        (500, 250, "chosen"),
        (500, 500, "asked"),
    ],
)
def test_a_tier_is_labelled_by_how_the_row_came_by_it(throughput, tier, label):
    from profiles.data_path.terms import _tier_label

    assert _tier_label(_spec(throughput), tier) == label


def test_a_row_without_data_keeps_its_tier_and_the_size_it_was_raised_to():
    from profiles.data_path.terms import at_tier

    spec = parse_spec({"accelerators": "A100:8", "hours": 10, "file_system": {"capacity": "2400GiB"}})
    row = at_tier(spec, OFFERING, 10.0, 500, None, capacity=4800)
    assert (row.hours, row.throughput, row.capacity_gib, row.storage.capacity_gib) == (10.0, 500, 4800, 4800.0)
    assert at_tier(spec, OFFERING, 10.0, 250, None).capacity_gib is None  # the workload's own size


EXPORT_NOTE = "data: export (write_back) requests not counted: give data.written_files (files the job writes)"


@pytest.mark.parametrize(
    ("extra", "usd", "export_note"),
    [
        # 1,000 GETs x $0.0004/1,000 + 1 LIST and 40,000 PUTs x $0.005/1,000 (R1, R2)
        pytest.param({"write_back": True, "written_files": 40_000}, 0.000405 + 0.2, False, id="exports-counted"),
        pytest.param({"write_back": True}, 0.000405, True, id="exports-unknown"),
        pytest.param({"written_files": None}, 0.000405, False, id="no-export"),
    ],
)
def test_a_rows_bucket_requests_count_the_exports_or_say_why_not(extra, usd, export_note):
    data = {"source": "s3://team-data/x", "size": "1000GiB", "files": 1000, "passes": 10, **extra}
    fields = {"accelerators": "A100:8", "hours": "2h", "file_system": {"capacity": "2400GiB"}, "data": data}
    row = data_row(parse_spec({k: v for k, v in fields.items() if v is not None}), OFFERING, 2.0, 40.0, None)
    assert row.usd_requests == pytest.approx(usd)
    assert (row.notes[-1] == EXPORT_NOTE) is export_note and row.notes.count(EXPORT_NOTE) == int(export_note)


def test_a_file_system_is_sized_up_to_at_most_what_a_stack_holds():
    """`sized_up` at its ceiling: 1,000 GiB read once in h hours needs 1,000 x 2^30 / 1e6 / (3,600 h)
    MB/s; h is chosen so that the 1000 MB/s/TiB tier needs exactly `MAX_FILE_SYSTEM_GIB`
    (104,857,600 GiB, 100 PiB) and the 500 tier twice that: the 1000 tier is kept at the
    ceiling, the 500 tier is skipped and the faster tier still tried."""
    hours = 1000 * 2**30 / 1e6 * 1024 / (1000 * MAX_FILE_SYSTEM_GIB * 3600)
    rows = sized_up(_spec(passes=1), OFFERING, hours, (500, 1000), None)
    assert [(r.throughput, r.capacity_gib) for r in rows] == [(1000, MAX_FILE_SYSTEM_GIB)]
    assert sized_up(_spec(passes=1), OFFERING, hours * 0.999, (500, 1000), None) == []


@pytest.mark.parametrize(("nodes", "tier"), [(2, 1000), (1, 500)])
def test_a_rows_tier_is_chosen_against_the_whole_clusters_compute_price(nodes, tier):
    """The fixture's data path picks 1000 MB/s per TiB (2.0 h, no waiting) when compute costs
    $5/h or more and 500 (2.545 h) at $2/h or less: $3/node-hour on 2 nodes ($6/h) takes the
    faster tier, $1.50 on 1 node the slower. Held capacity is weighed the same way, at its own
    rate."""
    node = OFFERING._replace(on_demand_usd_per_hour=3.0 if nodes == 2 else 1.5)
    (row,) = candidates(_spec(), node, JobHours(2.0), nodes)
    assert row.throughput == tier
    held = {"provider": "aws", "instance_type": "x.test", "zone": "use1-az1", "nodes": nodes, "id": "cr-1"}
    workload = parse_spec(
        {
            "accelerators": ["A100:8"],
            "hours": "2h",
            "nodes": nodes,
            "file_system": {"capacity": "2400GiB"},
            "data": {"source": "s3://team-data/x", "size": "1000GiB", "passes": 10, "files": 1000},
            "reservations": [{**held, "usd_per_hour": node.on_demand_usd_per_hour}],
        }
    )
    rows = {c.purchase: c for c in candidates(workload, node, JobHours(2.0), nodes)}
    assert rows["reservation"].throughput == tier
