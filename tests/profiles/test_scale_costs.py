"""Scale that costs something: the fabric's per-node bandwidth (nccl-tests busbw converted, never
above the NIC line rate), the global batch bounding data-parallel width, the per-accelerator
batch term, TPU slice sizes and node failures."""

import pytest

from profiles.cost import inputs
from profiles.cost.estimate import JobHours, Rejection, failure_hours, job_hours
from profiles.cost.throughput import batch_efficiency, node_busbw, node_busbw_bytes
from profiles.measurements.speeds import use_store
from profiles.resolver import resolve
from profiles.spec import parse_spec
from tests.profiles.offering_factory import aws_node, offering


def test_busbw_is_per_rank_and_converts_to_the_node_level_figure():
    # The published 2 x a3-megagpu-8g run (16 ranks): busbw 338.82 GB/s per rank; algbw
    # 338.82 x 16 / 30 = 180.70 GB/s; node-level (2 nodes) x 2 x 1 / 2 = 180.70 GB/s, within
    # the node's 8 x 200 Gbps = 200 GB/s of GPU NICs, not 338.82 x 8 = 2,710 GB/s.
    assert node_busbw(338.82, 16, 2) == pytest.approx(180.704)
    assert node_busbw(100.0, 32, 4) == pytest.approx(100 * 32 / 62 * 2 * 3 / 4)
    assert node_busbw(100.0, 2, 2) == pytest.approx(100.0)  # one rank per node: busbw = algbw
    for ranks, nodes in ((8, 1), (1, 2)):
        with pytest.raises(ValueError, match="^node_busbw needs a run of at least 2 ranks on at least 2 nodes$"):
            node_busbw(100.0, ranks, nodes)


def test_a_measured_figure_never_exceeds_the_nic_line_rate():
    node = aws_node(network_gbps=400.0)  # 50 GB/s
    inputs.register_measurements(lambda o: inputs.Measured(busbw_gbytes_per_s=80.0, source="nccl-tests"))
    try:
        assert node_busbw_bytes(node) == (50e9, "nccl-tests, capped at the 400 Gbps line rate")
        assert node_busbw_bytes(node._replace(network_gbps=800.0)) == (80e9, "nccl-tests")
        assert node_busbw_bytes(node._replace(network_gbps=640.0)) == (80e9, "nccl-tests")  # at the line rate
        assert node_busbw_bytes(node._replace(network_gbps=None)) == (80e9, "nccl-tests")  # no line rate known
    finally:
        inputs.clear_measurements()


def test_p5_is_ahead_of_a3_mega_for_an_8_node_7b_job_with_a_32k_batch(real_catalog):
    # The example: with the published A3 Mega figure read as node-level (180.7 GB/s,
    # not 2,710), 8 nodes of a 32K-token batch are communication-bound on A3 Mega's 1,800 Gbps
    # far more than on p5's 3,200 Gbps EFA.
    spec = parse_spec(
        {
            "accelerators": "H100:8",
            "nodes": 8,
            "interconnect": "rdma",
            "providers": ["aws", "gcp"],
            "purchase": "on-demand",
            "work": {"params": "7B", "tokens": "300B", "mfu": 0.4, "batch_tokens": "32K"},
        }
    )
    use_store(spec, None)
    try:
        kept = [o for o in real_catalog.offerings if o.instance_type in ("a3-megagpu-8g", "p5.48xlarge")]
        rows = [resolve(spec, kept, top=100).choice, *resolve(spec, kept, top=100).alternatives]
    finally:
        inputs.clear_measurements()
    best = {}
    for r in rows:
        best.setdefault(r.candidate.offering.instance_type, r.candidate)
    p5, mega = best["p5.48xlarge"], best["a3-megagpu-8g"]
    assert rows[0].candidate.offering.instance_type == "p5.48xlarge"
    assert p5.hours < mega.hours and p5.usd_total < mega.usd_total
    assert any("all-reduce 180.7 GB/s per node" in n for n in mega.notes)


def _llm(**fields):
    work = {"params": "1.3B", "tokens": "100B", "mfu": 0.4, **fields.pop("work", {})}
    return parse_spec({"accelerators": ["H100", "tpu-v5p"], "work": work, **fields})


def test_no_more_replicas_than_the_batch_has_sequences():
    # 32,768 tokens = 16 sequences of 2,048 (the assumed length without model.seq_len); each may
    # be split over a node's 8 GPUs: at most 128 GPUs, so 16 nodes pass and 17 do not.
    spec = _llm(work={"batch_tokens": 32768})
    assert isinstance(job_hours(spec, offering(), 16), JobHours)
    found = job_hours(spec, offering(), 17)
    assert found == Rejection(
        "batch",
        "136 accelerators for 16 sequences of 2,048 tokens per step (at most 8 accelerators per sequence; "
        "work.batch_tokens)",
    )


def test_four_v5p_12288_slices_are_too_wide_for_a_small_models_batch():
    # 4M tokens = 2,048 sequences, 4 chips a host: 8,192 chips at most; 4 x 6,144 is rejected.
    slice_ = offering(provider="gcp", accelerator="tpu-v5p", accelerator_count=6144, interconnect="tpu-ici")
    assert isinstance(job_hours(_llm(), slice_, 1), JobHours)
    assert job_hours(_llm(), slice_, 4).constraint == "batch"


def test_images_bound_the_width_too():
    spec = parse_spec(
        {
            "accelerators": "A100-80GB",
            "work": {"images": "1.28M", "epochs": 1, "flops_per_image": "12G", "mfu": 0.3, "batch_images": 64},
        }
    )
    assert isinstance(job_hours(spec, offering(), 8), JobHours)  # 64 GPUs
    assert job_hours(spec, offering(), 9) == Rejection(
        "batch", "72 accelerators for 64 images per step (work.batch_images)"
    )


def test_a_models_sequence_length_sets_the_sequences_in_the_batch():
    # 32,768 tokens of model.seq_len 4,096 = 8 sequences x 8 GPUs each: 64 GPUs, so 8 nodes pass and 9 do not.
    model = {"params": "1.3B", "layers": 24, "hidden": 2048, "heads": 16, "seq_len": 4096}
    spec = _llm(accelerators=["H100"], model=model, work={"batch_tokens": 32768})
    assert isinstance(job_hours(spec, offering(), 8), JobHours)
    assert job_hours(spec, offering(), 9) == Rejection(
        "batch",
        "72 accelerators for 8 sequences of 4,096 tokens per step (at most 8 accelerators per sequence; "
        "work.batch_tokens)",
    )


def test_the_per_accelerator_batch_term_follows_megatrons_strong_scaling():
    # b0 = (1 - 42/47) / (42/47 / 512 - 1 / 24,576) = 62.4 tokens (inputs.batch_overhead_tokens).
    assert inputs.batch_overhead_tokens() == pytest.approx((1 - 42 / 47) / (42 / 47 / 512 - 1 / 24576))
    assert inputs.batch_overhead_tokens() == pytest.approx(62.41, abs=0.01)
    assert batch_efficiency(512) / batch_efficiency(24576) == pytest.approx(42 / 47)
    assert batch_efficiency(512) == pytest.approx(1 / (1 + 62.41 / 512), rel=1e-3)  # 0.891


def test_smaller_slices_run_faster_per_chip_so_the_small_v5p_slice_is_cheapest(real_catalog):
    # 1.3B on v5p on-demand at the same price per chip-hour: per chip, small slices lose less to
    # the slice's size and to the batch share; the cheapest job is on a small slice, not v5p-1024.
    spec = parse_spec(
        {
            "accelerators": "tpu-v5p",
            "purchase": "on-demand",
            "regions": "us-east5",
            "work": {"params": "1.3B", "tokens": "100B", "mfu": 0.4},
        }
    )
    rows = resolve(spec, real_catalog.offerings, top=1000)
    # every slice size is a candidate (plotted); the table keeps the one the family rule takes
    by_chips = {c.offering.accelerator_count: c for c in rows.candidates}
    chips = sorted(by_chips, key=lambda c: by_chips[c].usd_total)
    assert chips[0] <= 64 and rows.choice.candidate.offering.accelerator_count <= 64
    assert by_chips[512].usd_total > by_chips[chips[0]].usd_total * 1.05


def test_node_failures_count_from_the_published_rate():
    # Llama 3: 419 interruptions in 54 days on 16,384 H100 = 1.973e-5 per GPU-hour. 64 nodes x 8
    # GPUs for 500 h: 5.05 failures, each losing half the 1 h checkpoint interval plus the
    # cloud's restart.
    spec = _llm(work={"batch_tokens": "64M"})
    node = aws_node(instance_type="p5.48xlarge", accelerator="H100")
    restart = inputs.restart_hours("aws", "p5.48xlarge")
    added, note = failure_hours(spec, node, 64, 500.0)
    failures = 500 * 64 * 8 * 419 / (54 * 24 * 16384)
    assert added == pytest.approx(failures * (0.5 + restart))
    assert note.startswith(f"node failures: {failures:.2f} expected, +{added:.1f} h (Llama 3: 419 interruptions")
    small, quiet = failure_hours(spec, node, 1, 10.0)
    assert quiet == "" and small == pytest.approx(10 * 8 * 419 / (54 * 24 * 16384) * (0.5 + restart))


def test_an_mfu_measured_on_a_tpu_scales_to_a_gpu_by_the_table(no_failures):
    # MFU 0.4 measured on TPU v5p (459 TFLOPS): an H100 runs 1 / 0.4460 times a v5p chip on llm work.
    work = {"params": "1B", "tokens": "10B", "mfu": 0.4, "mfu_reference": "tpu-v5p", "batch_tokens": "1T"}
    job = job_hours(parse_spec({"accelerators": "H100", "work": work}), aws_node(accelerator="H100"))
    assert job.speed == "calibrated" and "H100: llm speed 2.242x tpu-v5p (calibrated)" in job.notes
    assert job.hours == pytest.approx(6e9 * 1e10 / (8 * 459e12 * 0.4 / 0.4460) / 3600, rel=1e-6)


def test_without_a_calibrated_row_the_target_runs_at_its_own_peak_x_mfu(no_failures):
    # A10G (no llm row; 70 TFLOPS, unsourced) and an H100 NVL size (835 TFLOPS; the PCIe row is
    # not the NVL part): 6 x 1e9 x 1e10 FLOPs on 8 (1) GPUs at their own peak x 0.4.
    work = {"params": "1B", "tokens": "10B", "mfu": 0.4, "batch_tokens": "1T"}
    a10g = job_hours(parse_spec({"accelerators": "A10G", "work": work}), aws_node(accelerator="A10G", form_factor=None))
    assert (a10g.hours, a10g.speed) == (pytest.approx(6e19 / (8 * 70e12 * 0.4) / 3600, rel=1e-6), "peak x MFU")
    nvl = aws_node(
        instance_type="Standard_NC40ads_H100_v5", accelerator="H100", accelerator_count=1, form_factor="PCIe"
    )
    found = job_hours(parse_spec({"accelerators": "H100", "work": work}), nvl)
    assert (found.hours, found.speed) == (pytest.approx(6e19 / (835e12 * 0.4) / 3600, rel=1e-6), "peak x MFU")


def test_a_failure_loses_half_the_workloads_checkpoint_interval_and_the_slices_restart():
    # A TPU slice is restarted by hand (2 h, `inputs.restart_hours("gcp", "tpu-v5p-8")`), and the
    # workload checkpoints every 4 h: 64 slices x 4 chips for 500 h, each failure costs 2 h + 2 h.
    spec = _llm(purchase="spot", file_system={"capacity": "4800GiB"}, spot={"checkpoint_interval": "4h"})
    tpu = offering(
        provider="gcp",
        region="us-east5",
        zone="us-east5-a",
        instance_type="tpu-v5p-8",
        accelerator="tpu-v5p",
        accelerator_count=4,
        interconnect="tpu-ici",
    )
    added, note = failure_hours(spec, tpu, 64, 500.0)
    failures = 500 * 64 * 4 * 419 / (54 * 24 * 16384)
    assert inputs.restart_hours("gcp", "tpu-v5p-8") == 2.0
    assert added == pytest.approx(failures * (4 / 2 + 2.0))
    assert note.endswith("(Llama 3: 419 interruptions in 54 days on 16,384 H100; 4 h checkpoints, 2 h restart)")
