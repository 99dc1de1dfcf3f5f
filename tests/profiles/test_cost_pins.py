"""Hand-computed values for the cost model's small rules: every branch of inputs, pricing, memory,
the data path, storage estimates, the fabric and TPU scaling, and the candidates' ranking keys."""

import pytest

from clouds.storage_prices import STORAGE_PRICES
from facts.storage_prices import StoragePrice
from profiles.candidate import Candidate
from profiles.cost import inputs
from profiles.cost.memory import GIB, activation_gib, memory_fit, state_gib
from profiles.cost.pricing import committed_hours, reserved_usd_per_hour, storage_usd
from profiles.cost.storage import dearest_usd_price
from profiles.cost.throughput import Step, fabric_kind, node_busbw_bytes, scaling_efficiency, tpu_slice_efficiency
from profiles.cost.work import ModelSpec, WorkSpec, known_provider
from profiles.data_path.sizing import capacity_gib, describe, row_data_path, size_data_path
from tests.profiles.offering_factory import offering

GB = 2**30 / 1e9


@pytest.fixture
def measured_p5en():
    """A measurement registered for p5en.48xlarge only (the lookup reads the offering it is given)."""
    inputs.clear_measurements()
    inputs.register_measurements(
        lambda o: inputs.Measured(1.0, 2.0, 0.03, "bench p5en") if o.instance_type == "p5en.48xlarge" else None
    )
    yield
    inputs.clear_measurements()


def test_a_lookup_is_asked_about_the_offering_itself(measured_p5en):
    p5en, other = offering(instance_type="p5en.48xlarge"), offering(instance_type="p5.48xlarge")
    assert inputs.measured(p5en) == inputs.Measured(1.0, 2.0, 0.03, "bench p5en")
    assert inputs.measured(other) is None
    assert inputs.spot_interruptions(p5en) == (0.03, "bench p5en")
    # 2 GB/s between nodes, node-level as measured (never x GPUs), not the 1,600 Gbps link's assumed busbw.
    assert node_busbw_bytes(p5en) == (2e9, "bench p5en")
    assert node_busbw_bytes(other) == (160e9, "1600 Gbps gpudirect-rdma x 0.8 assumed busbw")


def test_restart_hours_of_an_unknown_cloud_is_the_manual_restart():
    assert inputs.restart_hours("aws") == 0.25
    assert inputs.restart_hours("oracle") == inputs.DEFAULT_RESTART_HOURS == 2.0


@pytest.mark.parametrize(
    ("instance_type", "family"),
    [("n2-custom", "n2-custom"), ("ecs.gn7e-c16g1.32xlarge", "ecs"), ("tpu-v5p-8", "tpu-v5p")],
)
def test_instance_family_splits_only_at_a_dot_or_a_numbered_size(instance_type, family):
    assert inputs.instance_family(instance_type) == family


def test_work_counts_accept_an_explicit_none():
    assert WorkSpec(gpu_hours=10, reference="A100-80GB", params=None).params is None


def test_an_unknown_cloud_lists_every_known_one():
    with pytest.raises(ValueError) as error:
        known_provider("oracle")
    assert str(error.value) == (
        "'oracle' is not a cloud trainstack knows; use aws, azure, gcp, alicloud, tencentcloud, huaweicloud, "
        "volcengine or baiducloud"
    )


def test_pricing_edges():
    assert reserved_usd_per_hour(10.0, "alicloud", "1y") is None  # no recorded discount
    assert committed_hours(8760, "1y") == 8760  # exactly one term is one term
    assert committed_hours(8761, "1y") == 17520
    # Huawei SFS Turbo 250: 4,915 GiB created x 1.31 CNY/GB-month x 0.14 USD/CNY, for a month.
    assert storage_usd("huaweicloud", 4800, 250, 730, 0.14) == pytest.approx(4915 * GB * 1.31 * 0.14)
    assert storage_usd("huaweicloud", 4800, 250, 730) is None  # without a rate: an estimate, not a price


SMALL = dict(params=1e9, layers=2, hidden=1024, heads=8, seq_len=1024)


def test_full_recomputation_keeps_each_layer_input_per_sequence():
    # 2 layers x 2 bytes x 1,024 tokens x 2 sequences x 1,024 hidden + one layer of 34 s b h bytes.
    model = ModelSpec(**SMALL, micro_batch=2)
    assert activation_gib(model, "full") == (2 * 2 * 1024 * 2 * 1024 + 1024 * 2 * 1024 * 34) / GIB


def test_memory_fit_at_the_exact_boundary_and_past_it():
    model = ModelSpec(**SMALL, gradient_checkpointing="auto")
    need = state_gib(model, 8) + activation_gib(model, "none")
    fit = memory_fit(model, need, 8)
    assert (fit.fits, fit.recompute, fit.need_gib, fit.have_gib) == (True, "none", need, need)
    short = memory_fit(model, 0.01, 8)
    assert (short.fits, short.recompute, short.have_gib) == (False, "full", 0.01)


def test_data_path_pieces():
    assert capacity_gib(100) == 125.0 and capacity_gib(100, 20) == 150.0
    path = size_data_path(100, 0, 1200, 250, None, None, True)
    assert (path.fs_capacity_gib, path.staging_hours, path.cache_fits) == (1200, 0.0, False)
    # 2,000 GiB read 10 times in 10 h: 596.5 MB/s, from 2,400 GiB x 125 MB/s/TiB = 293 MB/s.
    row = row_data_path(2000, 10, None, 2400, 125, 10, 7450, True)
    assert row.capacity_gib == 2500.0  # no model: no checkpoint space
    assert (row.staging_hours, row.cache_fits) == (0.0, True)
    assert row.read_mbps == pytest.approx(2000 * 2**30 / 1e6 * 10 / 36000)
    assert describe(row)[1] == (
        "data: the first pass is I/O bound: +0.00 h; more file_system.throughput (MB/s per TiB) or capacity feeds the GPUs"
    )


def _usd(service, per_gb_month):
    return StoragePrice(service, per_gb_month, "USD", "GB", "x", "test", "2026-01-01", True)


@pytest.mark.parametrize(
    ("mbps", "tier"),
    [pytest.param(250, 250, id="same-tier"), pytest.param(200, 250, id="nearest-higher-tier")],
)
def test_the_estimate_takes_the_dearest_of_a_tier(monkeypatch, mbps, tier):
    # "A-dear" sorts before FSx's name, so only the price can make it the dearest.
    monkeypatch.setitem(STORAGE_PRICES, ("gcp", 250), _usd("A-dear", 0.9))
    assert dearest_usd_price(mbps) == (tier, _usd("A-dear", 0.9))


def test_above_every_tier_the_dearest_of_all(monkeypatch):
    monkeypatch.setitem(STORAGE_PRICES, ("gcp", 125), _usd("A-dearest", 5.0))
    assert dearest_usd_price(2000) == (125, _usd("A-dearest", 5.0))


def test_an_unknown_fabric_counts_as_ethernet():
    assert fabric_kind(offering(interconnect="nvswitch-only")) == "ethernet"
    assert node_busbw_bytes(offering(interconnect="nvswitch-only", network_gbps=100.0))[0] == 100 / 8 * 1e9 * 0.3


@pytest.mark.parametrize(
    ("generation", "chips", "efficiency"),
    [
        pytest.param("tpu-v6e", 2048, 52398 / 55951, id="v6e-measured-point"),
        # 4,096 chips: past the last point, on the 512-2,048 slope: 52,398 + 1,776.5 x 3 = 57,727.5.
        pytest.param("tpu-v6e", 4096, 52398 / 57727.5, id="v6e-extrapolated"),
        pytest.param("tpu-v4", 2048, 58870 / 60621, id="no-data-uses-v5p"),
    ],
)
def test_tpu_slice_efficiency(generation, chips, efficiency):
    assert tpu_slice_efficiency(generation, chips) == pytest.approx(efficiency)


def _tpu(accelerator, chips):
    return offering(provider="gcp", accelerator=accelerator, accelerator_count=chips, interconnect="tpu-ici")


# 1e6 tokens x 6e9 FLOPs per token, 1e14 FLOP/s per chip, 2e11 gradient bytes per step.
STEP = Step(1e6, 6e9, 1e14, 2e11)


@pytest.mark.parametrize(
    ("accelerator", "chips", "nodes", "efficiency"),
    [
        # v5p 256 chips = 64 hosts x 100 Gbps = 8e11 B/s; 512 chips compute 0.1171875 s, the
        # all-reduce 2e11 / 8e11 = 0.25 s, 0.078125 s of it hidden: 0.1171875 / 0.2890625 = 15/37;
        # a 256-chip slice runs 58,870 / (58,870 - 875.5) per chip (the slope below 512).
        pytest.param("tpu-v5p", 256, 2, 15 / 37 * 58870 / (58870 - 875.5), id="two-v5p-slices-over-dcn"),
        # v5litepod 8 chips = 1 host (8 per host): 12.5e9 B/s, 16 s all-reduce, 2.5 s hidden, 3.75 s
        # compute; no v5e slice curve: v5p's, 8 chips counting as 64 (3 doublings below 512).
        pytest.param(
            "tpu-v5litepod", 8, 2, 3.75 / (3.75 + 13.5) * 58870 / (58870 - 3 * 875.5), id="eight-chips-per-host"
        ),
        # An unlisted generation counts 4 chips per host: 2 hosts, 25e9 B/s, 8 s all-reduce.
        pytest.param("tpu-v3", 8, 2, 3.75 / (3.75 + 5.5) * 58870 / (58870 - 3 * 875.5), id="unlisted-generation"),
        pytest.param("tpu-v6e", 2048, 1, 52398 / 55951, id="one-large-slice"),
    ],
)
def test_tpu_scaling_over_the_data_centre_network(accelerator, chips, nodes, efficiency):
    found, note = scaling_efficiency(_tpu(accelerator, chips), nodes, STEP)
    assert found == pytest.approx(efficiency)
    assert note == f"TPU slice x{tpu_slice_efficiency(accelerator, chips):.3f}"


def test_gpu_scaling_replicas_span_whole_nodes():
    node = offering()
    assert scaling_efficiency(node, 1, STEP) == (1.0, "")
    how = "1600 Gbps gpudirect-rdma x 0.8 assumed busbw"
    assert scaling_efficiency(node, 2, STEP, replica_nodes=2) == (1.0, how)  # one replica: nothing to all-reduce
    assert scaling_efficiency(node, 3, STEP, replica_nodes=2) == (1.0, how)  # 3 // 2 = one whole replica
    assert scaling_efficiency(node, 3, Step(1e6, 6e9, 1e14, 2e12), replica_nodes=2) == (1.0, how)
    # Two replicas on 2 nodes (16 GPUs): compute 6e15 / 1.6e15 = 3.75 s; all-reduce 2e11 / 160e9 = 1.25 s, hidden.
    assert scaling_efficiency(node, 2, STEP) == (1.0, how)
    # 8 nodes (64 GPUs): compute 0.9375 s (0.625 s hides), all-reduce 2 x 7/8 x 1.25 = 2.1875 s.
    assert scaling_efficiency(node, 8, STEP)[0] == pytest.approx(0.9375 / (0.9375 + 2.1875 - 0.625))


def _row(usd_per_node_hour, hours, purchase="on-demand", network=400.0):
    return Candidate(offering(network_gbps=network), purchase, 1, hours, usd_per_node_hour)


def test_costs_equal_to_a_millionth_of_a_dollar_are_a_tie_broken_by_speed():
    cheaper_slower = _row(100.0000001 / 10.0, 10.0)  # $100.0000001 per job
    dearer_faster = _row(100.0000004 / 9.9, 9.9)  # $100.0000004 per job
    assert sorted([cheaper_slower, dearer_faster], key=Candidate.sort_key) == [dearer_faster, cheaper_slower]


def test_equal_cost_the_faster_run_then_the_safer_purchase_then_the_known_network():
    # $100 per job either way: 10.4 h on-demand against 10.2 h spot; the faster spot run first.
    slow, fast = _row(100 / 10.4, 10.4, "on-demand"), _row(100 / 10.2, 10.2, "spot")
    assert sorted([slow, fast], key=Candidate.sort_key) == [fast, slow]
    unknown, known = _row(10.0, 10.0, network=None), _row(10.0, 10.0, network=0.5)
    assert sorted([unknown, known], key=Candidate.sort_key) == [known, unknown]


def test_hours_equal_to_a_millionth_are_a_tie_broken_by_the_safer_purchase():
    # $100 per job both; 10.0000001 h spot and 10.0000004 h on-demand are the same speed.
    spot, on_demand = _row(100 / 10.0000001, 10.0000001, "spot"), _row(100 / 10.0000004, 10.0000004)
    assert sorted([spot, on_demand], key=Candidate.sort_key) == [on_demand, spot]


def test_speed_key_is_hours_to_a_millionth_then_cost():
    # 10.0000001 h and 10.0000004 h are the same speed: the cheaper ($90) first.
    dear, cheap = _row(10.0, 10.0000001), _row(9.0, 10.0000004)
    assert sorted([dear, cheap], key=Candidate.speed_key) == [cheap, dear]
    slow, fast = _row(9.0, 10.4), _row(10.0, 10.2)
    assert sorted([slow, fast], key=Candidate.speed_key) == [fast, slow]
