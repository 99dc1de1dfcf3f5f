"""The time model by hand: memory with FlashAttention and recomputation, FLOPs with
attention, fabric scaling, TPU slices, and the model against published measurements."""

import pytest

from profiles.cost import inputs
from profiles.cost.estimate import JobHours, Rejection, hardware_flops_per_token, job_hours
from profiles.cost.memory import memory_fit
from profiles.cost.throughput import (
    Step,
    batch_efficiency,
    data_parallel_efficiency,
    fabric_kind,
    node_busbw_bytes,
    tpu_slice_efficiency,
)
from profiles.cost.work import ModelSpec
from profiles.resolver import resolve
from profiles.spec import parse_spec
from tests.profiles.offering_factory import aws_node

pytestmark = pytest.mark.usefixtures("no_failures")

GIB = 2**30
# 20B parameters, 40 layers of hidden 5120 and 40 heads, 4,096-token sequences.
SHAPE = {"params": "20B", "layers": 40, "hidden": 5120, "heads": 40, "seq_len": 4096}
STATE_16 = 20e9 * 16 / 16 / GIB  # FSDP over 16 GPUs: 18.63 GiB
FLASH_LAYER = 4096 * 5120 * 34  # Korthikanti eq. 1 without the 5as/h scores: 713,031,680 B
STANDARD_LAYER = 4096 * 5120 * (34 + 5 * 40 * 4096 / 5120)  # 4,068,474,880 B
KEPT_INPUTS = 40 * 2 * 4096 * 5120  # full recomputation keeps each layer's input


@pytest.mark.parametrize(
    ("attention", "mode", "usable", "recompute", "need"),
    [
        pytest.param("flash", "auto", 72, "none", STATE_16 + 40 * FLASH_LAYER / GIB, id="flash-fits-80gb-without"),
        pytest.param(
            "flash", "auto", 36, "full", STATE_16 + (KEPT_INPUTS + FLASH_LAYER) / GIB, id="flash-40gb-needs-full"
        ),
        pytest.param(
            "standard", "auto", 72, "selective", STATE_16 + 40 * FLASH_LAYER / GIB, id="standard-80gb-selective"
        ),
        pytest.param(
            "standard", "auto", 36, "full", STATE_16 + (KEPT_INPUTS + STANDARD_LAYER) / GIB, id="standard-40gb-full"
        ),
        pytest.param(
            "standard", "none", 200, "none", STATE_16 + 40 * STANDARD_LAYER / GIB, id="standard-none-stores-scores"
        ),
    ],
)
def test_memory_with_flash_attention_and_recomputation(attention, mode, usable, recompute, need):
    fit = memory_fit(ModelSpec(**SHAPE, attention=attention, gradient_checkpointing=mode), usable, 16)
    assert (fit.fits, fit.recompute, fit.need_gib) == (True, recompute, pytest.approx(need))


def test_no_recompute_refused_where_only_full_fits():
    fit = memory_fit(ModelSpec(**SHAPE, gradient_checkpointing="none"), 36, 16)
    assert (fit.fits, fit.need_gib) == (False, pytest.approx(STATE_16 + 40 * FLASH_LAYER / GIB))  # 45.19 > 36


@pytest.mark.parametrize(
    ("micro_batch", "recompute"),
    [pytest.param(2, "none", id="mb2-71.75-fits-72"), pytest.param(3, "full", id="mb3-needs-full")],
)
def test_micro_batch_multiplies_activations(micro_batch, recompute):
    fit = memory_fit(ModelSpec(**SHAPE, micro_batch=micro_batch), 72, 16)
    assert fit.recompute == recompute
    if recompute == "none":
        assert fit.need_gib == pytest.approx(STATE_16 + micro_batch * 40 * FLASH_LAYER / GIB)  # 71.75


def test_sharding_none_keeps_a_full_copy_per_gpu():
    fit = memory_fit(ModelSpec(**SHAPE, sharding="none"), 72, 16)
    assert (fit.fits, fit.need_gib) == (False, pytest.approx(20e9 * 16 / GIB + (KEPT_INPUTS + FLASH_LAYER) / GIB))


@pytest.mark.parametrize(
    ("value", "mode"),
    [(False, "none"), ("off", "none"), ("no", "none"), (True, "full"), ("on", "full"), ("selective", "selective")],
)
def test_checkpointing_yaml_words(value, mode):
    assert ModelSpec(**SHAPE, gradient_checkpointing=value).gradient_checkpointing == mode


def test_usable_memory_keeps_headroom():
    assert inputs.usable_gib("A100-80GB", 80) == pytest.approx(72.0)
    assert inputs.usable_gib("L4", 24) == pytest.approx(22888 / 1024 * 0.9)  # AWS reports 22,888 MiB


def test_flops_per_token_include_attention_and_recomputation():
    model = ModelSpec(**SHAPE)
    attention = 40 * 4096 * 5120  # n_layer x n_ctx x d_attn = 838,860,800
    assert hardware_flops_per_token(20e9, model, "none") == 6 * 20e9 + 6 * attention
    assert hardware_flops_per_token(20e9, model, "selective") == 6 * 20e9 + 8 * attention
    assert hardware_flops_per_token(20e9, model, "full") == 8 * 20e9 + 8 * attention
    assert hardware_flops_per_token(20e9, None, "full") == 8 * 20e9


# One L4 GPU (24 GiB) per node.
L4 = {"accelerator": "L4", "accelerator_count": 1, "accelerator_memory_gib": 24}


def _spec(**fields):
    return parse_spec({"accelerators": "A100-80GB", "interconnect": "rdma", **fields})


def test_mfu_is_read_as_its_source_measured_it():
    # 20B x 10B tokens with the shape: 125.03 GFLOPs per token; the source recomputed
    # selectively (126.71), this run needs none, so it runs 126.71 / 125.03 faster than the MFU
    # says. The MFU was measured on this A100-80GB and counts attention as the model does (6).
    work = {"params": "20B", "tokens": "10B", "mfu": 0.5, "mfu_reference": "A100-80GB", "mfu_attention": 6}
    job = job_hours(_spec(work=work, model=SHAPE), aws_node())
    attention = 40 * 4096 * 5120
    per_token, source = 6 * 20e9 + 6 * attention, 6 * 20e9 + 8 * attention
    rate = 312e12 * 0.5 * source / per_token
    kept = batch_efficiency(4 * 2**20 / 8)
    assert (job.recompute, job.hours) == ("none", pytest.approx(per_token * 10e9 / (8 * rate) / 3600 / kept))
    same = job_hours(_spec(work={**work, "mfu_recompute": "none"}, model=SHAPE), aws_node())
    assert same.hours == pytest.approx(per_token * 10e9 / (8 * 312e12 * 0.5) / 3600 / kept)


@pytest.mark.parametrize(
    ("convention", "counted"),
    [
        pytest.param(12, 6 * 20e9 + 12 * 40 * 4096 * 5120, id="megatron-torchtitan-12"),
        pytest.param(6, 6 * 20e9 + 6 * 40 * 4096 * 5120, id="kaplan-6"),
        pytest.param(0, 6 * 20e9, id="params-only"),
    ],
)
def test_a_published_mfu_fed_back_on_its_own_hardware_gives_its_own_tokens_per_second(convention, counted):
    # The source's tokens/s = peak x MFU / (its FLOPs per token); the model charges its own
    # 6N + 6Lsh per token at the rate that gives back exactly those tokens/s.
    work = {"params": "20B", "tokens": "10B", "mfu": 0.5, "mfu_recompute": "none", "mfu_reference": "A100-80GB"}
    job = job_hours(_spec(work={**work, "mfu_attention": convention}, model=SHAPE), aws_node())
    tokens_per_s = 8 * 312e12 * 0.5 / counted * batch_efficiency(4 * 2**20 / 8)
    assert job.hours == pytest.approx(10e9 / tokens_per_s / 3600)


def test_the_default_mfu_convention_is_megatrons_12():
    work = {"params": "20B", "tokens": "10B", "mfu": 0.5, "mfu_recompute": "none", "mfu_reference": "A100-80GB"}
    default = job_hours(_spec(work=work, model=SHAPE), aws_node())
    twelve = job_hours(_spec(work={**work, "mfu_attention": "12"}, model=SHAPE), aws_node())
    six = job_hours(_spec(work={**work, "mfu_attention": 6}, model=SHAPE), aws_node())
    assert default.hours == twelve.hours
    # 6N + 12Lsh over 6N + 6Lsh: 125.03 + 5.03 GFLOPs: the 6-count MFU is 4.0 % optimistic here.
    assert twelve.hours / six.hours == pytest.approx(
        (6 * 20e9 + 12 * 40 * 4096 * 5120) / (6 * 20e9 + 6 * 40 * 4096 * 5120)
    )


def test_full_recomputation_costs_its_extra_forward_once():
    work = {"params": "20B", "tokens": "10B", "mfu": 0.5, "mfu_recompute": "none"}
    work |= {"mfu_reference": "A100-80GB", "mfu_attention": 6}
    job = job_hours(_spec(work=work, model={**SHAPE, "gradient_checkpointing": "full"}), aws_node())
    attention = 40 * 4096 * 5120
    per_token, used = 6 * 20e9 + 6 * attention, 8 * 20e9 + 8 * attention
    hours = per_token * 10e9 / (8 * 312e12 * 0.5 * per_token / used) / 3600
    assert job.hours == pytest.approx(hours / batch_efficiency(4 * 2**20 / 8))
    assert "gradient checkpointing: full" in job.notes


def test_data_parallel_efficiency_by_hand():
    # compute = 6 x 1e6 / (16 x 1e14) = 3.75e-9 s; all-reduce = 2 x 1/2 x 2 / 1e8 = 2e-8 s;
    # exposed = 2e-8 - 2/3 x 3.75e-9 = 1.75e-8 s; efficiency = 3.75 / (3.75 + 17.5) = 0.1765.
    step = Step(batch_tokens=1e6, flops_per_token=6, flops_per_gpu=1e14, gradient_bytes=2)
    assert data_parallel_efficiency(step, 2, 16, 1e8) == pytest.approx(3.75 / 21.25)
    assert data_parallel_efficiency(step, 2, 16, 1e12) == 1.0  # hidden behind backward
    assert data_parallel_efficiency(step, 1, 8, 1.0) == 1.0


@pytest.mark.parametrize(
    ("instance_type", "fabric", "kind"),
    [
        ("p5.48xlarge", "efa", "gpudirect-rdma"),
        ("g6.8xlarge", "efa", "rdma"),
        ("Standard_ND96asr_v4", "infiniband", "gpudirect-rdma"),
        ("a3-highgpu-8g", "gpudirect-tcpx", "gpudirect-tcpx"),
        ("a2-ultragpu-8g", "ethernet", "ethernet"),
        ("x", "erdma", "rdma"),
    ],
)
def test_fabric_kind(instance_type, fabric, kind):
    assert fabric_kind(aws_node(instance_type=instance_type, interconnect=fabric)) == kind


def test_small_batch_scaling_follows_the_fabric_bandwidth():
    # gpu_hours work, batch 64K tokens, 16 nodes of 1 L4: per "parameter" compute =
    # 6 x 65,536 / (16 x 121e12 x 0.4) = 5.08e-10 s, all-reduce 2 x 15/16 x 2 / busbw.
    work = {"gpu_hours": 100, "reference": "A100-80GB", "batch_tokens": 65536}
    spec = parse_spec({"accelerators": "L4", "interconnect": "rdma", "nodes": 16, "work": work})
    slow = job_hours(spec, aws_node(instance_type="g6.8xlarge", **L4, network_gbps=25.0))
    fast = job_hours(spec, aws_node(instance_type="p5.4xlarge", **L4, network_gbps=3200.0))
    compute = 6 * 65536 / (16 * 121e12 * 0.4)
    allreduce = 2 * 15 / 16 * 2 / (25 / 8 * 1e9 * 0.5)
    kept = batch_efficiency(65536 / 16)  # L4 has no calibrated llm row: peak x MFU
    assert slow.efficiency == pytest.approx(compute / (compute + allreduce - 2 / 3 * compute) * kept)
    assert fast.efficiency > slow.efficiency


def test_tpu_slices_show_diminishing_returns():
    assert tpu_slice_efficiency("tpu-v5p", 512) == 1.0
    # below 512 chips the 512-2,048 slope (875.5 chip-minutes per doubling) runs on to 64 chips
    assert tpu_slice_efficiency("tpu-v5p", 64) == pytest.approx(58870 / (58870 - 3 * 875.5))
    assert tpu_slice_efficiency("tpu-v5p", 8) == tpu_slice_efficiency("tpu-v5p", 64)
    assert tpu_slice_efficiency("tpu-v6e", 256) == pytest.approx(52398 / (52398 - (55951 - 52398) / 2))
    assert tpu_slice_efficiency("tpu-v5p", 2048) == pytest.approx(58870 / 60621)
    assert tpu_slice_efficiency("tpu-v5p", 6144) == pytest.approx(58870 / 72315)  # 0.814
    assert tpu_slice_efficiency("tpu-v6e", 2048) == pytest.approx(52398 / 55951)
    assert tpu_slice_efficiency("tpu-v5p", 12288) < tpu_slice_efficiency("tpu-v5p", 6144)


def test_larger_tpu_slices_cost_more_per_job(real_catalog):
    spec = parse_spec(
        {
            "accelerators": "tpu-v5p",
            "purchase": "on-demand",
            "regions": "us-east5",
            "work": {"gpu_hours": 1200, "reference": "A100-80GB"},
        }
    )
    rows = resolve(spec, real_catalog.offerings, top=1000)
    by_chips = {r.candidate.offering.accelerator_count: r.candidate for r in (rows.choice, *rows.alternatives)}
    # The same $4.20 per chip-hour: 6,144 chips run at 0.814 of 512 chips' speed per chip, 4 at
    # 1.047 (the slope below 512, to 64 chips); the 4M-token batch leaves 683 tokens a chip at 6,144.
    kept = batch_efficiency(4 * 2**20 / 6144) / batch_efficiency(4 * 2**20 / 4)
    expected = tpu_slice_efficiency("tpu-v5p", 4) / tpu_slice_efficiency("tpu-v5p", 6144) / kept
    assert by_chips[6144].usd_total / by_chips[4].usd_total == pytest.approx(expected, rel=1e-3)
    assert expected == pytest.approx(72315 / (58870 - 3 * 875.5) / kept)
    assert by_chips[6144].hours < by_chips[4].hours


def test_equal_cost_ranks_the_faster_row_first():
    one = aws_node(instance_type="a", on_demand_usd_per_hour=10.0)
    two = aws_node(instance_type="b", on_demand_usd_per_hour=20.0, accelerator_count=16)
    work = {"gpu_hours": 160, "reference": "A100-80GB", "kind": "bert"}  # bert: no per-GPU batch term
    rows = resolve(parse_spec({"accelerators": "A100-80GB", "work": work}), [one, two])
    assert [r.candidate.offering.instance_type for r in (rows.choice, *rows.alternatives)] == [
        "b",
        "a",
    ]  # 10 h vs 20 h, $200 each


def test_memory_rejection_names_the_usable_memory():
    spec = _spec(hours=10, model={**SHAPE, "gradient_checkpointing": "none"})
    found = job_hours(spec, aws_node(accelerator_memory_gib=40.0, accelerator="A100"))
    assert isinstance(found, Rejection) and "36.0 GiB usable (40 GiB less 10% headroom)" in found.detail


def test_a_measurement_replaces_the_assumed_speed():
    spec = _spec(work={"gpu_hours": 80, "reference": "A100-80GB", "kind": "bert"})
    inputs.register_measurements(lambda o: inputs.Measured(tflops_per_gpu=989 * 0.4 * 0.3241 / 2, source="bench"))
    try:
        job = job_hours(spec, aws_node())
    finally:
        inputs.clear_measurements()
    # half the calibrated A100's bert speed (an H100's 989 x 0.40 x 0.3241): twice the hours
    assert job.hours == pytest.approx(80 / 8 * 2)
    assert job_hours(spec, aws_node()).hours == pytest.approx(10.0)


def test_model_against_megatron_strong_scaling():
    # Megatron-LM (T4): GPT-3 175B on H100, batch 1,152 x 2,048 tokens, MFU 47 % on 96 GPUs
    # and 42 % on 4,608. The data-parallel all-reduce (p5's 3,200 Gbps, replicas of 5 nodes
    # holding the 2.8 TB state) hides behind backward at both sizes; the per-GPU batch term,
    # fitted to this series, keeps 42 / 47: the model's error on its own calibration points
    # stays within 1 %.
    work = {"params": "175B", "tokens": "1B", "mfu": 0.47, "batch_tokens": 1152 * 2048}
    spec = parse_spec({"accelerators": "H100", "interconnect": "rdma", "nodes": 12, "work": work})
    p5 = aws_node(instance_type="p5.48xlarge", accelerator="H100", accelerator_memory_gib=80, network_gbps=3200.0)
    small, large = job_hours(spec, p5, 12), job_hours(spec, p5, 576)
    predicted_mfu = 0.47 * large.efficiency / small.efficiency
    assert abs(predicted_mfu / 0.42 - 1) < 0.01


def test_rows_say_where_their_speed_comes_from():
    spec = _spec(work={"gpu_hours": 80, "reference": "A100-80GB"})
    assert job_hours(spec, aws_node()).speed == "calibrated"
    assert job_hours(spec, aws_node(accelerator="A10G", form_factor=None)).speed == "peak x MFU"
    assert job_hours(_spec(hours=5), aws_node()).speed == "given"
    inputs.register_measurements(lambda o: inputs.Measured(tflops_per_gpu=100.0, provenance="published"))
    try:
        assert job_hours(spec, aws_node()).speed == "published"
        assert resolve(spec, [aws_node()]).choice.candidate.speed == "published"
    finally:
        inputs.clear_measurements()


@pytest.mark.parametrize(
    ("instance_type", "family"),
    [
        ("p5.48xlarge", "p5"),
        ("g6e.12xlarge", "g6e"),
        ("Standard_ND96asr_v4", "Standard_ND96asr_v4"),
        ("a3-highgpu-8g", "a3-highgpu"),
        ("tpu-v5p-8", "tpu-v5p"),
        ("ecs.gn7e-c16g1.32xlarge", "ecs"),
        ("GT4", "GT4"),
    ],
)
def test_instance_family(instance_type, family):
    assert inputs.instance_family(instance_type) == family


def test_spot_interruptions_prefer_a_measurement_then_a_family_row():
    node = aws_node(instance_type="p5en.48xlarge", accelerator="H200")  # no Spot Advisor band recorded for it
    assert inputs.spot_interruptions(node) == inputs.DEFAULT_SPOT_INTERRUPTIONS
    inputs.SPOT_INTERRUPTIONS[("aws", "p5en")] = (0.07, "family row")
    try:
        assert inputs.spot_interruptions(node) == (0.07, "family row")
        inputs.register_measurements(lambda o: inputs.Measured(interruptions_per_node_month=0.01, source="bench"))
        assert inputs.spot_interruptions(node) == (0.01, "bench")
    finally:
        inputs.clear_measurements()
        del inputs.SPOT_INTERRUPTIONS[("aws", "p5en")]


def test_a_measured_busbw_replaces_the_assumed_fraction():
    node = aws_node(instance_type="p5.48xlarge", accelerator="H100", accelerator_memory_gib=80, network_gbps=3200.0)
    assert node_busbw_bytes(node) == (3200 / 8 * 1e9 * 0.8, "3200 Gbps gpudirect-rdma x 0.8 assumed busbw")
    assert node_busbw_bytes(node._replace(network_gbps=None))[0] == 10 / 8 * 1e9 * 0.8  # unknown: 10 Gbps
    inputs.register_measurements(lambda o: inputs.Measured(busbw_gbytes_per_s=40.0, source="nccl-tests"))
    try:
        assert node_busbw_bytes(node) == (40e9, "nccl-tests")  # node-level already: never x 8 GPUs
    finally:
        inputs.clear_measurements()


def test_tpu_slice_efficiency_extrapolates_past_the_largest_measurement():
    # v5p: (72,315 - 60,621) / log2(3) chip-minutes per doubling past 6,144 chips.
    slope = (72315 - 60621) / (__import__("math").log2(6144) - __import__("math").log2(2048))
    assert tpu_slice_efficiency("tpu-v5p", 12288) == pytest.approx(58870 / (72315 + slope))
    assert tpu_slice_efficiency("tpu-v4", 2048) == pytest.approx(58870 / 60621)  # no v4 data: the v5p curve
    assert tpu_slice_efficiency("tpu-v5p", 1024) == pytest.approx(58870 / (58870 + (60621 - 58870) / 2))


def test_a_work_run_time_over_the_limit_is_a_rejection(fixture_catalog):
    """At the cap `hours:` has (facts.limits.MAX_HOURS) a `work:` run time is rejected too."""
    from facts.limits import MAX_HOURS
    from profiles.cost.estimate import Rejection, job_hours
    from profiles.spec import parse_spec

    p4d = next(o for o in fixture_catalog.offerings if o.instance_type == "p4d.24xlarge")
    work = {"gpu_hours": 8 * MAX_HOURS, "reference": "A100", "kind": "bert"}
    under = job_hours(parse_spec({"accelerators": "A100:8", "work": work}), p4d)
    assert isinstance(under, JobHours) and under.hours == pytest.approx(MAX_HOURS)  # 8 GPUs x 26,280 h on one node
    work = {**work, "gpu_hours": 8 * MAX_HOURS * 1.01}
    over = job_hours(parse_spec({"accelerators": "A100:8", "work": work}), p4d)
    assert isinstance(over, Rejection) and over.constraint == "run_time"
    assert over.hours == pytest.approx(MAX_HOURS * 1.01) and over.detail == "26,543 h on 1 x p4d.24xlarge"
