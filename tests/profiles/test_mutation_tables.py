"""Pure-function tables for `profiles/cost/`, the resolver and the node choice.

Each case pins a value computed by hand (shown beside it) so that a changed operator,
constant or comparison in the function gives a different answer. They are here because
`make mutate` (tests/mutation_equivalents.md) found the function's other tests could not
tell such a change apart. No Pulumi, no catalog load, no file I/O: the whole file runs in
well under a second.
"""

from __future__ import annotations

import math

import pytest

from facts.limits import MAX_HOURS
from facts.performance import performance
from profiles.candidate import Candidate
from profiles.choice.fewest import choice_cost
from profiles.choice.gaps import clouds_without_rows
from profiles.choice.price_checks import with_price_findings
from profiles.choice.search_bounds import floor_price
from profiles.cost.checkpoint import write_hours
from profiles.cost.cluster_cost import ClusterCost, cluster_cost, usd_per_cny
from profiles.cost.estimate import JobHours, _replica_nodes, _split, job_hours
from profiles.cost.flex import flex, purchase_price
from profiles.cost.held import beside_price, held_rows
from profiles.cost.inputs import spot_interruptions
from profiles.cost.speed import Rate, gpu_hours_speed
from profiles.costing import candidates
from profiles.data_path.link_sizing import for_link
from profiles.data_path.row import data_row
from profiles.data_path.terms import at_tier
from profiles.explain import NoMatchError, WorkloadFieldError
from profiles.fixes import jurisdiction_fix
from profiles.matching import job_detail
from profiles.resolver import FLEX_TOO_LONG, _zones_note, distinct_offerings, resolve
from profiles.spec import parse_spec
from tests.clusters import example_config
from tests.profiles.offering_factory import aws_node, offering


@pytest.mark.parametrize(
    ("state", "mbps", "hours"),
    [
        (3.6e9, 1.0, 1.0),  # 3.6e9 B at 1e6 B/s = 3,600 s
        (7.2e9, 2.0, 1.0),
        (1.8e12, 500.0, 1.0),  # 1.8e12 / 5e8 = 3,600 s
        (3.6e9, 4.0, 0.25),
    ],
)
def test_write_hours_is_bytes_over_megabytes_per_second(state, mbps, hours):
    assert write_hours(state, mbps) == pytest.approx(hours, rel=1e-12)


# The spot fallback's gap fill on a row (`profiles.costing._fill`): 2 x p4de-like nodes at $40/h
# on-demand, $12/h spot, 72 h, 0.73 interruptions per node-month, checkpoints every hour and no
# restart time: 72 x 2 x 0.73 / 730 = 0.144 interruptions, each losing half an interval, so the
# run is 72.072 h; the fill is 72.072 x 2 x 0.73 / 730 interruptions x $28/h x 72.072 / 2 h.
FILL_SPEC = {
    "name": "fill",
    "accelerators": ["A100-80GB:8"],
    "nodes": 2,
    "hours": 72,
    "purchase": "spot",
    "spot": {"checkpoint_interval": "1h", "restart": "0h", "interruptions_per_node_month": 0.73},
    "file_system": {"capacity": "4800GiB"},
}
FILL_USD = 72.072 * 2 * 0.73 / 730 * 28.0 * 72.072 / 2  # $145.44


def _spot_row(node, **spot):
    spec = parse_spec({**FILL_SPEC, "spot": {**FILL_SPEC["spot"], **spot}})
    (row,) = [c for c in candidates(spec, node, job_hours(spec, node, 2), 2) if c.purchase == "spot"]
    return row


@pytest.mark.parametrize(
    ("fallback", "minutes"), [("on-demand after 30m", "30"), ("on-demand after 2h", "120")], ids=["30m", "2h"]
)
def test_a_spot_rows_gap_fill_is_the_on_demand_premium_for_half_the_run_per_interruption(fallback, minutes):
    row = _spot_row(aws_node(spot_usd_per_hour=12.0), fallback=fallback)
    assert row.hours == pytest.approx(72.072, rel=1e-12)
    assert row.usd_fill == pytest.approx(FILL_USD, rel=1e-12)
    assert row.notes[-2].startswith("spot: 0.14 interruptions expected, +0.1 h (0.73/node-month, spec)")
    assert row.usd_total == pytest.approx(12.0 * 2 * 72.072 + row.usd_storage + FILL_USD, rel=1e-12)
    assert row.notes[-1] == (
        f"spot fallback: on-demand fills a short spot group after {minutes} min, up to $145.44 per job (an upper bound: "
        "each interrupted node's fill is kept to the run's end, as no source gives how long spot stays short)"
    )


def test_the_gap_fill_uses_the_types_own_interruption_rate_when_the_spec_gives_none():
    node = aws_node(spot_usd_per_hour=12.0)
    spec = parse_spec({**FILL_SPEC, "spot": {"checkpoint_interval": "1h", "fallback": "on-demand after 30m"}})
    (row,) = [c for c in candidates(spec, node, job_hours(spec, node, 2), 2) if c.purchase == "spot"]
    rate = spot_interruptions(node)[0]
    assert rate != 0.73
    assert row.usd_fill == pytest.approx(row.hours * 2 * rate / 730 * 28.0 * row.hours / 2, rel=1e-12)


@pytest.mark.parametrize(
    "node",
    [
        pytest.param(offering(spot_usd_per_hour=12.0, on_demand_usd_per_hour=40.0), id="azure-has-no-fallback"),
        pytest.param(aws_node(spot_usd_per_hour=12.0, on_demand_usd_per_hour=None), id="no-on-demand-price"),
    ],
)
def test_no_gap_fill_where_the_cloud_has_no_fallback_or_no_on_demand_price(node):
    row = _spot_row(node, fallback="on-demand after 30m")
    assert row.usd_fill is None
    assert not any(n.startswith("spot fallback") for n in row.notes)
    assert row.usd_total == pytest.approx(12.0 * 2 * 72.072 + row.usd_storage, rel=1e-12)


# Why an allowed cloud gave no row (`profiles.choice.gaps.clouds_without_rows`), one case a rule.
_AWS, _GCP = aws_node(), offering(provider="gcp", region="us-central1", zone="us-central1-a")
_GCP_2 = _GCP._replace(zone="us-central1-b")


@pytest.mark.parametrize(
    ("allowed", "failed", "details", "gaps"),
    [
        pytest.param(["aws"], {"price": [_AWS]}, {}, {}, id="a-cloud-with-a-row-is-not-a-gap"),
        pytest.param(
            ["aws", "lambda", "gcp"],
            {"price": [_GCP]},
            {},
            {
                "lambda": "no priced offering in the catalog (`trainstack catalog info`; refresh with "
                "`trainstack catalog refresh --provider lambda`)",
                "gcp": "price: no offering of these accelerators has a price for the purchase asked; 1 offerings "
                "removed by it",
            },
            id="each-cloud-after-one-with-rows-or-none-listed",
        ),
        pytest.param(
            ["lambda"],
            {},
            {},
            {
                "lambda": "no priced offering in the catalog (`trainstack catalog info`; refresh with "
                "`trainstack catalog refresh --provider lambda`)"
            },
            id="a-cloud-with-no-offering",
        ),
        pytest.param(["gcp"], {"price": [_AWS]}, {}, {}, id="only-other-clouds-removed-says-nothing"),
        pytest.param(
            ["azure", "gcp"],
            {"region": [_GCP]},
            {},
            {"gcp": "region: no offering in the `regions` asked; 1 offerings removed by it"},
            id="a-listed-cloud-nothing-removed-then-one-removed",
        ),
        pytest.param(
            ["gcp"],
            {"price": [_GCP, _GCP_2], "accelerator": [_GCP], "interconnect": [_AWS, _GCP]},
            {},
            {
                "gcp": "price: no offering of these accelerators has a price for the purchase asked; 2 offerings removed by it"
            },
            id="the-deepest-constraint-with-its-count",
        ),
        pytest.param(
            ["aws", "gcp"],
            {"gpu_memory": [_GCP], "region": [_GCP_2]},
            {("gcp", "gpu_memory"): "40 GiB < 80 GiB", ("gcp", "region"): "unused"},
            {"gcp": "gpu_memory: no offering with the GPU memory asked (40 GiB < 80 GiB); 1 offerings removed by it"},
            id="with-the-first-offerings-numbers",
        ),
    ],
)
def test_each_allowed_cloud_without_a_row_is_named_with_its_deepest_constraint(allowed, failed, details, gaps):
    found = [Candidate(_AWS, "on-demand", 1, 10.0, 40.0)]
    assert clouds_without_rows(allowed, [_AWS, _GCP, _GCP_2, offering()], found, failed, details) == gaps


@pytest.mark.parametrize(
    ("fields", "rate"),
    [
        pytest.param({"currency": "CNY", "on_demand_native": 70.0, "on_demand_usd_per_hour": 10.0}, 1 / 7, id="cny"),
        pytest.param({"currency": "USD", "on_demand_native": 70.0, "on_demand_usd_per_hour": 10.0}, None, id="usd"),
        pytest.param(
            {"currency": "CNY", "on_demand_native": None, "on_demand_usd_per_hour": 10.0}, None, id="no-native"
        ),
        pytest.param({"currency": "CNY", "on_demand_native": 0.0, "on_demand_usd_per_hour": 10.0}, None, id="native-0"),
        pytest.param({"currency": "CNY", "on_demand_native": 70.0, "on_demand_usd_per_hour": None}, None, id="no-usd"),
    ],
)
def test_a_cny_rows_rate_is_its_usd_over_its_native_price(fields, rate):
    found = usd_per_cny(offering(**fields))
    assert found == (None if rate is None else pytest.approx(rate, rel=1e-12))


def _priced(nodes, hours, usd_per_node_hour, zone="eastus"):
    return Candidate(offering(zone=zone), "on-demand", nodes, hours, usd_per_node_hour)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # $99.60 on 16 GPUs before $100.40 on 8: the cost decides to the cent, not the dollar.
        pytest.param((2, 1.0, 49.8), (1, 1.0, 100.4), id="cheaper-by-cents"),
        # $100.004 on 8 GPUs before $100.001 on 16: equal to the cent, the fewer GPUs first.
        pytest.param((1, 1.0, 100.004), (2, 1.0, 50.0005), id="same-cent-fewer-gpus"),
        # Equal to the cent and in GPUs: the cheaper by a tenth of a cent, though slower.
        pytest.param((1, 2.0, 50.0005), (1, 1.0, 100.004), id="then-the-exact-cost"),
    ],
)
def test_rows_rank_by_cost_to_the_cent_then_fewer_accelerators_then_exact_cost(first, second):
    # Built here, not at import: a Candidate keeps its sort key once computed.
    first, second = _priced(*first), _priced(*second)
    assert sorted([second, first], key=Candidate.sort_key) == [first, second]
    assert first.sort_key() < second.sort_key()


@pytest.mark.parametrize(
    ("usd_per_node_hour", "folded"),
    [pytest.param(100.004, True, id="same-to-the-cent"), pytest.param(100.4, False, id="40-cents-apart")],
)
def test_zone_copies_fold_when_their_cost_is_the_same_to_the_cent(usd_per_node_hour, folded):
    rows = [_priced(1, 1.0, 99.996, "eastus-1"), _priced(1, 1.0, usd_per_node_hour, "eastus-2")]
    found = distinct_offerings(rows)
    assert found == ([(rows[0], ("eastus-2",))] if folded else [(rows[0], ()), (rows[1], ())])


def test_a_rows_zone_copies_are_listed_after_it():
    assert _zones_note(("use2-az2", "use2-az3")) == "; also in use2-az2, use2-az3 at the same cost"
    assert _zones_note(()) == ""


def test_the_gap_fill_is_its_own_part_of_the_hourly_and_job_texts():
    # $20/h of nodes and $1/h of file system for 10 h, and a $30 gap fill: $240, $24/h.
    cost = ClusterCost(20.0, 1.0, 10.0, fill_usd=30.0)
    assert cost.hourly_text() == (
        "$24.0000/hour = compute $20.0000 + file system $1.0000 + on-demand gap fill $3.0000 (at most)"
    )
    assert cost.job_text() == (
        "$240.00 per job (10 h) = $200.00 compute + $10.00 file system + $30.00 on-demand gap fill (at most)"
    )


def test_gpu_hours_on_a_reference_without_a_calibrated_speed_scale_by_peaks():
    # H100 SXM has a calibrated LLM speed, the A10G reference none: 1,000 A10G-hours take
    # 1,000 x 70 / 989 H100-hours (BF16 peaks, `facts.performance`), at 989 TFLOPS x 0.4.
    work = parse_spec({"accelerators": "H100", "work": {"gpu_hours": 1000, "reference": "A10G"}}).work
    node = offering(accelerator="H100", form_factor="SXM", instance_type="p5.48xlarge")
    hours, rate = gpu_hours_speed(work, node, performance("H100", "SXM"))
    assert hours == pytest.approx(1000 * 70 / 989, rel=1e-12)
    assert rate == Rate(989e12 * 0.4, "peak x MFU", "no calibrated speed: peak ratio")


def test_a_stacks_cost_names_its_file_systems_own_vms_and_carries_the_gap_fill():
    mount = (
        "the file system's mount service (3 x ecs.g4i.large ECS instances it creates to manage the clients, billed "
        "as ECS, on-demand, always on) is not in USD/hour or USD/job: the catalog holds GPU types only; add its "
        "on-demand price in cn-beijing"
    )
    cost = cluster_cost(example_config("volcengine"), 10.0, 0.14, fill_usd=5.0)
    assert cost.left_out[-1] == mount and cost.fill_usd == 5.0
    assert cost.usd_total == pytest.approx(10.0 * 72 + cost.storage_usd_per_hour * 72 + 5.0, rel=1e-12)
    assert cluster_cost(example_config("volcengine", file_system=None), 10.0, 0.14).left_out == ()


_CN_DATA = {
    "accelerators": "A100-80GB:8",
    "hours": 10,
    "jurisdiction": "cn-mainland",
    "file_system": {"capacity": "4800GiB"},
    "data": {"source": "s3://team/x", "size": "100GiB"},
}
_CN_ROWS = [
    offering(provider=p, region=r, zone=r)
    for p, r in (("alicloud", "cn-beijing"), ("azure", "chinanorth3"), ("tencentcloud", "ap-shanghai"))
]
_COPY = "data.source: no cloud with mainland-China regions can link 's3://team/x'; copy the data to "


@pytest.mark.parametrize(
    ("rows", "source", "fix"),
    [
        pytest.param(
            _CN_ROWS,
            "s3://team/x",
            _COPY + "an OSS bucket (oss://BUCKET/PREFIX) (alicloud) or an Azure Blob container "
            "(https://ACCOUNT.blob.core.windows.net/CONTAINER/PREFIX) (azure) in the cluster's region and point "
            "data.source there",
            id="each-mainland-clouds-bucket-kind",
        ),
        pytest.param(
            _CN_ROWS[2:],
            "s3://team/x",
            _COPY + "a bucket in mainland China in the cluster's region and point data.source there",
            id="no-mainland-cloud-links-a-bucket",
        ),
        pytest.param(
            _CN_ROWS,
            "oss://team/x",
            "no mainland-China offering meets the rest of the workload: relax `accelerators`, nodes or "
            "`interconnect` (the nearest offerings above)",
            id="a-mainland-bucket-is-linked",
        ),
    ],
)
def test_the_jurisdiction_fix_says_where_to_copy_a_dataset_no_mainland_cloud_links(rows, source, fix):
    spec = parse_spec({**_CN_DATA, "data": {"source": source, "size": "100GiB"}})
    assert jurisdiction_fix(spec, rows) == fix


_OSS_DATA = {"accelerators": "A100-80GB:8", "hours": 10, "data": {"source": "oss://team/x", "size": "2000GiB"}}


@pytest.mark.parametrize(
    ("fields", "provider", "capacity", "note"),
    [
        # 2,000 GiB of data sizes 2,500 GiB; Alibaba's link needs CPFS at 200 MB/s/TiB above 600 MB/s.
        pytest.param(
            {},
            "alicloud",
            3073.0,
            "data: file system sized up from 2,500 to 3,073 GiB: the smallest CPFS at 200 MB/s per TiB whose "
            "bandwidth exceeds the smallest data flow's 600 MB/s (Alibaba CreateDataFlow)",
            id="data-sized-is-raised",
        ),
        pytest.param({"file_system": {"capacity": "2400GiB"}}, "alicloud", 2400.0, None, id="a-stated-size-is-kept"),
        pytest.param({}, "aws", 2500.0, None, id="a-link-without-a-floor"),
    ],
)
def test_a_data_sized_file_system_is_raised_to_what_the_link_can_use(fields, provider, capacity, note):
    spec = parse_spec({**_OSS_DATA, **fields})
    raised, why = for_link(spec, provider)
    assert (raised.file_system.capacity_gib, why) == (capacity, note)
    assert for_link(spec._replace(data=None), provider) == (spec._replace(data=None), None)
    assert for_link(spec._replace(file_system=None), provider) == (spec._replace(file_system=None), None)


def test_a_rows_data_terms_use_the_raised_file_system_and_say_why():
    spec = parse_spec({**_OSS_DATA, "data": {**_OSS_DATA["data"], "files": 1000}})
    row = data_row(spec, offering(provider="alicloud", region="cn-beijing", zone="cn-beijing-a"), 10.0, 100.0, 0.14)
    assert (row.capacity_gib, row.storage.capacity_gib, row.throughput) == (3073.0, 3073.0, 200)
    assert row.notes[0].startswith("file system: CPFS advance_200 3,073 GiB, $0.83/h")
    assert row.notes[-1].startswith("data: file system sized up from 2,500 to 3,073 GiB")
    # A stated capacity is the row's: nothing raised, nothing said.
    kept = data_row(
        parse_spec({**_OSS_DATA, "file_system": {"capacity": "3200GiB"}}),
        offering(provider="alicloud", region="cn-beijing", zone="cn-beijing-a"),
        10.0,
        100.0,
        0.14,
    )
    assert kept.capacity_gib is None and kept.storage.capacity_gib == 3200.0
    assert not any(n.startswith("data: file system sized up") for n in kept.notes)


_SECRET_JOB = {
    "accelerators": "A100-80GB:8",
    "hours": 10,
    "file_system": {"capacity": "4800GiB"},
    "job": {"command": "/fsx/t.py", "env": {"HF_TOKEN": {"secret": "hfToken"}}},
}


@pytest.mark.parametrize(
    ("where", "problem"),
    [
        pytest.param(
            {"provider": "alicloud", "region": "cn-beijing", "zone": "cn-beijing-a"},
            "job.env.HF_TOKEN: alicloud has no secret store trainstack's nodes read yet; put the value in a file on "
            "the shared file system (chmod 600) and give its path as HF_TOKEN_FILE",
            id="a-cloud-without-a-secret-store",
        ),
        pytest.param(
            {"provider": "aws", "region": "us-east-1", "zone": "use1-az1", "platform": "sagemaker"},
            "job.env.HF_TOKEN: secrets reach VM stacks' nodes only; a sagemaker job gets no secret from trainstack "
            "yet; give it through the platform's own secret support, or run on the cloud's VMs",
            id="a-platform",
        ),
        pytest.param(
            {"provider": "aws", "region": "us-east-1", "zone": "use1-az1", "instance_type": "p4d.24xlarge"},
            None,
            id="aws-vms-read-it",
        ),
    ],
)
def test_a_jobs_secret_is_refused_where_its_nodes_cannot_read_it(where, problem):
    assert job_detail(parse_spec(_SECRET_JOB), offering(**where)) == problem


def test_a_job_on_a_pool_trainstack_submits_nothing_to_is_refused_with_the_fix():
    spec = parse_spec({**_SECRET_JOB, "job": {"command": "/fsx/t.py"}})
    node = aws_node(instance_type="p4d.24xlarge", platform="hyperpod")
    assert job_detail(spec, node) == (
        "job: trainstack submits no job to SageMaker HyperPod yet (docs/platforms.md); remove job and run it on the "
        "cluster, or pick another platform"
    )


# Flex-start rows (`profiles.cost.flex`): an a2-highgpu-1g in us-central1 at Google's DWS SKUs,
# 1.61365 (GPU) + 12 vCPU x 0.01739 + 85 GiB x 0.00233 USD/hour (`tests/profiles/test_flex_start_rows.py`).
_A2 = offering(
    provider="gcp",
    region="us-central1",
    zone="us-central1-a",
    instance_type="a2-highgpu-1g",
    accelerator="A100",
    accelerator_count=1,
    vcpus=12,
    memory_gib=85,
    on_demand_usd_per_hour=3.67339,
    spot_usd_per_hour=1.2,
)
_A2_FLEX = 1.61365 + 0.20868 + 0.19805


def test_a_flex_start_row_is_priced_for_vm_rows_of_a_cloud_that_sells_it():
    found = flex(_A2, 10.0)
    assert isinstance(found, tuple) and found[0] == pytest.approx(_A2_FLEX, abs=1e-9)
    assert "DWS Defined Duration SKUs" in found[1]
    too_long = flex(_A2, 134.5)
    assert isinstance(too_long, str) and "134.5 h" in too_long
    assert flex(_A2._replace(platform="vertex"), 10.0) is None
    assert flex(aws_node(), 10.0) is None


@pytest.mark.parametrize(
    ("node", "purchase", "usd"),
    [
        pytest.param(_A2, "flex-start", _A2_FLEX, id="flex"),
        pytest.param(_A2, "spot", 1.2, id="spot"),
        pytest.param(_A2, "on-demand", 3.67339, id="on-demand"),
        pytest.param(aws_node(), "flex-start", None, id="no-flex-on-aws"),
    ],
)
def test_a_purchase_price_is_the_rows_own_or_the_flex_start_one(node, purchase, usd):
    found = purchase_price(node, purchase)
    assert found == (None if usd is None else pytest.approx(usd, abs=1e-9))


# Held capacity a row can use (`profiles.cost.held`): p4de-like nodes in use1-az1.
_P4DE = aws_node()
_HERE = {"provider": "aws", "instance_type": _P4DE.instance_type, "zone": _P4DE.zone}


def _held_spec(*reservations):
    return parse_spec({"accelerators": "A100-80GB:8", "hours": 10, "nodes": 4, "reservations": list(reservations)})


def test_a_row_uses_every_reservation_of_its_type_and_zone_and_a_smaller_block_beside_on_demand():
    elsewhere = {**_HERE, "zone": "use1-az2", "id": "cr-far", "nodes": 8, "usd_per_hour": 1.0}
    exact = {**_HERE, "id": "cr-4", "nodes": 4, "usd_per_hour": 2.0}
    small = {**_HERE, "id": "cr-2", "nodes": 2, "usd_per_hour": 3.0}
    block = {**_HERE, "id": "cb-2", "kind": "capacity-block", "nodes": 2, "usd_per_hour": 4.0}
    spec = _held_spec(elsewhere, exact, small, block)
    assert [(r.id, n) for r, n in held_rows(spec, _P4DE, 4)] == [("cr-4", None), ("cb-2", 2)]
    assert [(r.id, n) for r, n in held_rows(spec, _P4DE, 2)] == [("cr-4", None), ("cr-2", None), ("cb-2", None)]


def test_a_blocks_nodes_beside_on_demand_average_their_prices():
    # 2 of 8 nodes at $5 in the block, 6 at $40 on-demand: (10 + 240) / 8 = $31.25 per node-hour.
    assert beside_price(5.0, 2, 8, _P4DE) == (
        31.25,
        "block_nodes: 2 of 8 nodes in the Capacity Block's own group, 6 on-demand beside it at $40.00/node-hour: "
        "$31.25/node-hour on average",
    )
    assert beside_price(5.0, 2, 8, _P4DE._replace(on_demand_usd_per_hour=None)) == (None, "")


def test_a_held_rows_floor_price_is_the_lower_of_its_blended_and_its_own_rate():
    block = {**_HERE, "id": "cb-4", "kind": "capacity-block", "nodes": 4, "usd_per_hour": 5.0}
    (held,) = _held_spec(block).reservations
    assert floor_price(Candidate(_P4DE, "capacity-block", 4, 10.0, 22.5, reservation=held)) == 5.0
    assert floor_price(Candidate(_P4DE, "capacity-block", 4, 10.0, 4.0, reservation=held)) == 4.0
    assert floor_price(Candidate(_P4DE, "on-demand", 4, 10.0, 40.0)) == 40.0


@pytest.mark.parametrize(
    ("fields", "split"),
    [
        pytest.param({"accelerator": "tpu-v6e", "accelerator_count": 16, "interconnect": "tpu-ici"}, 8, id="v6e-host"),
        pytest.param({"accelerator": "tpu-v5p", "accelerator_count": 16, "interconnect": "tpu-ici"}, 4, id="v5p-host"),
        pytest.param(
            {"accelerator": "tpu-v9", "accelerator_count": 16, "interconnect": "tpu-ici"}, 4, id="unknown-tpu"
        ),
        pytest.param({"accelerator_count": 8}, 8, id="a-gpu-node"),
    ],
)
def test_a_sequence_splits_over_a_tpu_hosts_chips_or_a_gpu_nodes(fields, split):
    assert _split(offering(**fields)) == split


def test_a_dataset_of_unknown_size_adds_no_data_terms_to_the_file_systems_row():
    spec = parse_spec(
        {
            "accelerators": "A100-80GB:8",
            "hours": 10,
            "file_system": {"capacity": "4800GiB"},
            "data": {"source": "s3://team/x"},
        }
    )
    row = at_tier(spec, aws_node(), 10.0, 250, None)
    assert (row.hours, row.throughput, row.capacity_gib, row.wait_hours) == (10.0, 250, None, 0.0)
    assert row.storage.capacity_gib == 4800.0 and row.notes == (row.storage.describe(),)
    sized = at_tier(spec, aws_node(), 10.0, 250, None, 9600.0)
    assert (sized.capacity_gib, sized.storage.capacity_gib) == (9600.0, 9600.0)


@pytest.mark.parametrize(
    ("row", "reference", "cost"),
    [
        # $10.0055 of which $0.0055 file system over 10 h, kept 20 h: + $0.0055 = $10.011 -> $10.01.
        pytest.param(Candidate(offering(), "on-demand", 1, 10.0, 1.0, usd_storage=0.0055), 20.0, 10.01, id="kept"),
        pytest.param(Candidate(offering(), "on-demand", 1, 10.0, 1.0, usd_storage=0.0055), 5.0, 10.01, id="shorter"),
        pytest.param(Candidate(offering(), "on-demand", 1, 10.0, 1.0046), 20.0, 10.05, id="no-file-system"),
        # A row of no hours has no file-system rate to stretch: its total, $100.
        pytest.param(Candidate(offering(), "on-demand", 1, 0.0, 1.0, usd_storage=100.0), 10.0, 100.0, id="no-hours"),
    ],
)
def test_the_size_choice_compares_costs_to_the_cent_with_the_file_system_kept(row, reference, cost):
    assert choice_cost(row, reference) == cost


@pytest.mark.parametrize(("params", "replicas_span_both"), [("38B", False), ("40B", True)])
def test_a_model_whose_state_needs_two_nodes_spans_them_and_all_reduces_its_share(params, replicas_span_both):
    """16 bytes per parameter (no `model:`): 38B = 608 GB fits one 8 x A100-80GB node's usable
    memory, so 2 nodes are 2 replicas all-reducing every gradient over 100 Gbps; 40B = 640 GB
    does not, so one replica spans both and each node all-reduces only its half."""
    spec = parse_spec(
        {
            "accelerators": "A100-80GB:8",
            "nodes": 2,
            "work": {"params": params, "tokens": "10B", "mfu": 0.4, "batch_tokens": "256K"},
        }
    )
    node = offering(network_gbps=100.0, interconnect="ethernet")
    assert _replica_nodes(node, float(params[:-1]) * 1e9, 16) == (2 if replicas_span_both else 1)
    efficiency = job_hours(spec, node, 2).efficiency
    assert (efficiency > 0.99) if replicas_span_both else (efficiency < 0.8)


def test_a_flex_start_row_is_offered_only_for_a_run_one_request_holds():
    spec = parse_spec({"accelerators": "A100:1", "nodes": 2, "hours": 20, "purchase": "flex-start"})
    (row,) = candidates(spec, _A2, JobHours(20.0), 2)
    assert (row.purchase, row.usd_per_node_hour, row.usd_total) == ("flex-start", _A2_FLEX, _A2_FLEX * 2 * 20.0)
    assert row.notes[-1].startswith("flex-start: $2.02/h per node from Compute Engine's DWS Defined Duration SKUs")
    # The row's other notes stay before it.
    stored = parse_spec(
        {
            "accelerators": "A100:1",
            "nodes": 2,
            "hours": 20,
            "purchase": "flex-start",
            "file_system": {"capacity": "4800GiB"},
        }
    )
    (row,) = candidates(stored, _A2, JobHours(20.0), 2)
    assert row.notes[0] == row.storage.describe() and row.notes[-1].startswith("flex-start: $2.02/h per node")
    assert candidates(spec, _A2, JobHours(200.0), 2) == []  # 200 h: longer than one request's 134.4 h


def test_a_blocks_row_on_more_nodes_than_it_holds_says_both_the_blocks_end_and_the_nodes_beside(monkeypatch):
    """A $5 block of 2 nodes ending 5 h into a 10 h job on 4 nodes: the block's nodes average
    (5 x 5 + 40 x 5) / 10 = $22.50, and with 2 more on-demand nodes at $40 beside it $31.25."""
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-04T13:40:00Z")
    block = {**_HERE, "id": "cb-2", "kind": "capacity-block", "nodes": 2, "usd_per_hour": 5.0}
    spec = parse_spec(
        {
            "accelerators": "A100-80GB:8",
            "nodes": 4,
            "hours": 10,
            "reservations": [{**block, "ends": "2026-12-04T19:20:00Z"}],
        }
    )
    rows = {c.purchase: c for c in candidates(spec, _P4DE, JobHours(10.0), 4)}
    held = rows["capacity-block"]
    assert (held.usd_per_node_hour, held.block_nodes) == (31.25, 2)
    assert (
        held.notes[-2].startswith("Capacity Block cb-2 ends 2026-12-04T19:20:00Z")
        and "$22.50/node-hour" in held.notes[-2]
    )
    assert held.notes[-1].startswith("block_nodes: 2 of 4 nodes in the Capacity Block's own group")
    # A block that cannot price its rest gives no row, beside on-demand or not.
    rows = {c.purchase: c for c in candidates(spec, _P4DE._replace(on_demand_usd_per_hour=None), JobHours(10.0), 4)}
    assert "capacity-block" not in rows


def test_rows_whose_prices_disagree_with_their_siblings_say_so_and_others_do_not():
    # a3-highgpu-8g at $40/h in us-central1 and $90/h in us-east1: more than 1.8x apart in one continent.
    where = {"provider": "gcp", "instance_type": "a3-highgpu-8g"}
    central = offering(**where, region="us-central1", zone="us-central1-a", on_demand_usd_per_hour=40.0)
    east = offering(**where, region="us-east1", zone="us-east1-b", on_demand_usd_per_hour=90.0)
    other = offering(provider="azure", region="eastus", zone="eastus", on_demand_usd_per_hour=30.0)
    rows = [Candidate(o, "on-demand", 1, 10.0, o.on_demand_usd_per_hour) for o in (central, east, other)]
    found = with_price_findings(rows, [central, east, other])
    assert found[0].notes == (
        "price check: a3-highgpu-8g (8 x A100-80GB) $40.00/h in us-central1 (skypilot-catalog, 2026-01-01) is more "
        "than 1.8x from its $90.00/h in us-east1 (north-america): one side is likely a wrong price until a newer one "
        "settles it",
    )
    assert found[1].notes[0].startswith("price check: a3-highgpu-8g (8 x A100-80GB) $90.00/h in us-east1")
    assert found[2] is rows[2]


def test_work_too_long_for_every_row_names_the_fastest_and_the_unit_check():
    """70B parameters x 100T tokens on one 8-GPU node runs for centuries everywhere: the error
    names the fastest offering (the H100 node, listed after the A100 one) and its hours."""
    a100 = offering(instance_type="Standard_A", accelerator="A100-80GB")
    h100 = offering(instance_type="Standard_H", accelerator="H100", accelerator_memory_gib=80.0, zone="eastus-2")
    spec = parse_spec(
        {"accelerators": ["A100-80GB:8", "H100:8"], "nodes": 1, "work": {"params": "70B", "tokens": "100T", "mfu": 0.4}}
    )
    with pytest.raises(WorkloadFieldError) as raised:
        resolve(spec, [a100, h100])
    message = str(raised.value)
    assert message.startswith("work: the job takes ") and " even on 1 x Standard_H, the fastest; " in message
    assert _hours(message) < _hours(str(_too_long(spec, a100)))  # the A100 node alone: slower
    fewest = math.ceil(_hours(message) / MAX_HOURS)  # one node now: at least this many at linear scaling
    assert message.endswith(
        f"check the units of work (tokens: 300B, images: 1.28M) or run on more nodes: at least {fewest} at "
        f"linear scaling (`nodes: {fewest}`)"
    )


def _too_long(spec, node):
    with pytest.raises(WorkloadFieldError) as raised:
        resolve(spec, [node])
    return raised.value


def _hours(message):
    return float(message.removeprefix("work: the job takes ").split(" h ")[0].replace(",", ""))


def test_a_flex_start_job_longer_than_any_request_says_so():
    spec = parse_spec({"accelerators": "A100:1", "nodes": 2, "hours": 200, "purchase": "flex-start"})
    with pytest.raises(NoMatchError) as raised:
        resolve(spec, [_A2])
    assert str(raised.value) == FLEX_TOO_LONG
    # A row that fails a check of its own is not that case: the usual no-match names the check.
    with pytest.raises(NoMatchError) as other:
        resolve(spec, [_A2._replace(accelerator_count=2)])
    assert str(other.value) != FLEX_TOO_LONG
