"""Hand-computed job hours: rejections with their numbers, the peak each figure is read at,
measured speeds, replicas spanning nodes, and the notes a row carries."""

import pytest

from profiles.cost import inputs
from profiles.cost.estimate import JobHours, Rejection, job_hours
from profiles.cost.throughput import batch_efficiency
from profiles.spec import parse_spec
from tests.profiles.offering_factory import offering

pytestmark = pytest.mark.usefixtures("no_failures")

GIB = 2**30
# Four A100-80GB nodes on InfiniBand: 72 GiB usable per GPU (80 less 10 %), 160e9 B/s busbw per node.
NODE_BYTES = 72 * 8 * GIB
BUSBW = 1600 / 8 * 1e9 * 0.8
HOW = "1600 Gbps gpudirect-rdma x 0.8 assumed busbw"


def spec(**fields):
    return parse_spec({"accelerators": ["A100-80GB", "A100", "H100", "L4", "A10G", "MI300X"], **fields})


def dp_efficiency(per_token, batch, gpus, rate, replicas, gradient_bytes, busbw):
    """docs/workloads.md's scaling rule with the numbers given: compute, the ring all-reduce, 2/3 hidden."""
    compute = per_token * batch / (gpus * rate)
    allreduce = 2 * (replicas - 1) / replicas * gradient_bytes / busbw
    return compute / (compute + max(0.0, allreduce - 2 / 3 * compute))


SMALL_MODEL = dict(layers=2, hidden=1024, heads=8, seq_len=1024, sharding="none")


def test_a_model_on_a_gpu_of_unknown_memory_is_rejected():
    found = job_hours(spec(hours=10, model={**SMALL_MODEL, "params": 1e9}), offering(accelerator_memory_gib=None))
    assert found == Rejection("memory_fit", "A100-80GB memory per GPU unknown")


def test_memory_is_the_reported_size_less_headroom():
    # L4: 22,888 MiB reported x 0.9 = 20.1 GiB. 1.4B params x 16 B = 20.86 GiB + 0.04 GiB of
    # activations (full recomputation) = 20.9 GiB: too much, though 24 GiB x 0.9 = 21.6 would hold it.
    l4 = offering(accelerator="L4", accelerator_count=1, accelerator_memory_gib=24.0, form_factor=None)
    found = job_hours(spec(hours=10, model={**SMALL_MODEL, "params": 1.4e9}), l4)
    assert found == Rejection(
        "memory_fit",
        "needs 20.9 GiB per GPU with full recomputation, L4 has 20.1 GiB usable (24 GiB less 10% headroom)",
    )


def test_an_accelerator_without_a_sourced_peak_is_rejected():
    found = job_hours(spec(work={"gpu_hours": 100, "reference": "A100-80GB"}), offering(accelerator="MI300X"))
    assert found == Rejection("throughput", "no sourced BF16 TFLOPS for MI300X")


def test_gpu_hours_scale_by_the_calibrated_speed_not_the_peak():
    # 1,000 H100 (SXM) hours on 8 x A100-80GB, llm: 1000 / 0.4537 / 8 = 275.5 h (by peaks 989 /
    # 312 it would be 396.2 h); bert: 1000 / 0.3241 / 8 = 385.7 h.
    found = job_hours(spec(work={"gpu_hours": 1000, "reference": "H100"}), offering())
    kept = batch_efficiency(4 * 2**20 / 8)  # the default 4M-token batch over 8 GPUs (llm only)
    assert (found.hours, found.speed) == (pytest.approx(1000 / 0.4537 / 8 / kept), "calibrated")
    bert = job_hours(spec(work={"gpu_hours": 1000, "reference": "H100", "kind": "bert"}), offering())
    assert bert.hours == pytest.approx(1000 / 0.3241 / 8)
    assert "A100-80GB: llm speed 0.454x H100 (calibrated)" in found.notes


def test_an_nvl_size_is_priced_at_the_nvl_peak():
    # Standard_NC40ads_H100_v5 carries one H100 NVL (835 TFLOPS), not the 756 TFLOPS PCIe card,
    # and has no calibrated row: the ratio of peaks.
    nvl = offering(
        instance_type="Standard_NC40ads_H100_v5", accelerator="H100", accelerator_count=1, form_factor="PCIe"
    )
    found = job_hours(spec(work={"gpu_hours": 100, "reference": "A100-80GB"}), nvl)
    kept = batch_efficiency(4 * 2**20)
    assert (found.hours, found.speed) == (pytest.approx(100 * 312 / 835 / kept), "peak x MFU")


@pytest.fixture
def measured_node():
    """200 TFLOPS measured on instance type `measured` only."""
    inputs.clear_measurements()
    inputs.register_measurements(
        lambda o: inputs.Measured(tflops_per_gpu=200.0, source="bench") if o.instance_type == "measured" else None
    )
    yield offering(instance_type="measured", accelerator="H100")
    inputs.clear_measurements()


@pytest.mark.parametrize(
    ("work", "measured_hours", "estimated_hours"),
    [
        # 6 x 1e9 x 1e10 FLOPs on 8 GPUs: at 200 TFLOPS 10.42 h; at 989 x 0.4 TFLOPS 5.27 h (the
        # MFU is an H100's by default); each GPU's 524,288 tokens per step keep 1 / (1 + 62.4 / b).
        pytest.param(
            {"params": 1e9, "tokens": 1e10, "mfu": 0.4},
            6e19 / 1.6e15 / 3600 / batch_efficiency(4 * 2**20 / 8),
            6e19 / (8 * 989e12 * 0.4) / 3600 / batch_efficiency(4 * 2**20 / 8),
            id="llm",
        ),
        # 1e6 images x 10 epochs x 1e10 FLOPs = 1e17 FLOPs; the cnn MFU is an A100-80GB's, and an
        # H100 runs 1 / 0.4714 as fast: 312 x 0.5 / 0.4714 TFLOPS.
        pytest.param(
            {"images": 1e6, "epochs": 10, "flops_per_image": 1e10, "mfu": 0.5},
            1e17 / 1.6e15 / 3600,
            1e17 / (8 * 312e12 * 0.5 / 0.4714) / 3600,
            id="images",
        ),
        # 1,000 A100-80GB hours: 1000 x 0.4537 / 8 h on H100 (llm), at 989 x 0.4 TFLOPS; measured
        # 200 TFLOPS: x 989 x 0.4 / 200.
        pytest.param(
            {"gpu_hours": 1000, "reference": "A100-80GB"},
            1000 * 0.4537 / 8 * 989 * 0.4 / 200 / batch_efficiency(4 * 2**20 / 8),
            1000 * 0.4537 / 8 / batch_efficiency(4 * 2**20 / 8),
            id="gpu-hours",
        ),
    ],
)
def test_a_measured_speed_replaces_peak_times_mfu(measured_node, work, measured_hours, estimated_hours):
    measured = job_hours(spec(work=work), measured_node)
    assert (measured.hours, measured.speed) == (pytest.approx(measured_hours), "measured")
    estimated = job_hours(spec(work=work), measured_node._replace(instance_type="p5.48xlarge"))
    assert (estimated.hours, estimated.speed) == (pytest.approx(estimated_hours), "calibrated")


# 1e11 tokens: with 1e12 these 75B jobs on 32 GPUs would run past the 26,280 h run-time limit.
# params x tokens work, no model: 16 B of state per parameter, 65,536-token steps (32 sequences
# of 2,048, each split over at most 8 GPUs: 256 >= 32), MFU measured on the A100-80GB itself:
# 124.8 TFLOPS per GPU; each GPU's 2,048 tokens keep 1 / (1 + 62.4 / 2,048) = 0.970.
RATE = 312e12 * 0.4
BATCH = 65536
KEPT = batch_efficiency(BATCH / 32)


@pytest.mark.parametrize(
    ("params", "memory", "replica_nodes"),
    [
        # 75B x 16 B = 1.2e12 B over 618.5e9 B per node: 2 nodes per replica, 2 replicas on 4 nodes.
        pytest.param(75e9, 80.0, 2, id="state-spans-two-nodes"),
        pytest.param(7e9, 80.0, 1, id="state-fits-one-node"),
        pytest.param(75e9, None, 1, id="unknown-memory-one-node"),
    ],
)
def test_replicas_span_the_nodes_their_state_needs(params, memory, replica_nodes):
    work = {"params": params, "tokens": 1e11, "mfu": 0.4, "batch_tokens": BATCH, "mfu_reference": "A100-80GB"}
    found = job_hours(spec(nodes=4, work=work), offering(accelerator_memory_gib=memory))
    replicas = 4 // replica_nodes
    expected = dp_efficiency(6 * params, BATCH, 32, RATE, replicas, 2 * params / replica_nodes, BUSBW) * KEPT
    assert found.efficiency == pytest.approx(expected)
    assert found.hours == pytest.approx(6 * params * 1e11 / (32 * RATE) / 3600 / expected)
    assert found.notes == (f"A100-80GB: scaling x{expected:.3f} ({HOW})",)


def test_a_models_own_bytes_per_parameter_set_the_replica_size():
    # 75B x 8 B = 6e11 B fits one node (618.5e9 B): 4 replicas. With the 16 B default it would take 2 nodes.
    model = {"params": 75e9, "layers": 2, "hidden": 1024, "heads": 8, "seq_len": 1024, "bytes_per_param": 8}
    work = {"params": 75e9, "tokens": 1e11, "mfu": 0.4, "mfu_recompute": "none", "batch_tokens": BATCH}
    work |= {"mfu_attention": 6, "mfu_reference": "A100-80GB"}
    found = job_hours(spec(nodes=4, work=work, model=model), offering())
    per_token = 6 * 75e9 + 6 * 2 * 1024 * 1024
    kept = batch_efficiency(BATCH / 32)
    assert found.efficiency == pytest.approx(dp_efficiency(per_token, BATCH, 32, RATE, 4, 2 * 75e9, BUSBW) * kept)


def test_just_past_a_whole_node_the_replica_takes_another():
    # 75B x 17 B = 1.275e12 B: 3 nodes per replica, so 4 nodes hold one replica: no all-reduce
    # between replicas, only the batch share (65,536 / 32 tokens of 1,024-token sequences) costs.
    model = {"params": 75e9, "layers": 2, "hidden": 1024, "heads": 8, "seq_len": 1024, "bytes_per_param": 17}
    work = {"params": 75e9, "tokens": 1e11, "mfu": 0.4, "mfu_recompute": "none", "batch_tokens": BATCH}
    found = job_hours(spec(nodes=4, work=work, model=model), offering())
    assert found.efficiency == pytest.approx(KEPT)


STANDARD = {"layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096, "attention": "standard"}


def test_given_hours_without_a_model_are_taken_as_they_are():
    assert job_hours(spec(hours=72, nodes=2), offering()) == JobHours(72.0, False, (), "none", speed="given")


def test_replicas_are_sized_on_the_reported_memory():
    # 8 x L40S: 45,776 MiB reported x 0.9 = 40.2 GiB a GPU, 345.6e9 B a node (48 GiB marketed would
    # give 371.1e9 B). 22.5B x 16 B = 360e9 B: two nodes per replica, so 4 nodes hold 2 replicas.
    l40s = offering(accelerator="L40S", accelerator_memory_gib=48.0, form_factor=None)
    workload = spec(nodes=4, work={"params": 22.5e9, "tokens": 1e12, "mfu": 0.4, "batch_tokens": BATCH})
    # L40S on llm: 0.2092 of an H100 SXM, whose peak x MFU the default MFU is.
    expected = dp_efficiency(6 * 22.5e9, BATCH, 32, 989e12 * 0.4 * 0.2092, 2, 2 * 22.5e9 / 2, BUSBW) * KEPT
    assert job_hours(workload, l40s).efficiency == pytest.approx(expected)


def test_given_hours_still_check_memory_over_every_gpu_of_the_cluster():
    # 20B sharded over 16 GPUs: 18.6 GiB of state; selective recomputation keeps 34 s b h per
    # layer, 17 GiB; storing the scores (194 s b h) would need 97 GiB. Over 4 GPUs it would not fit.
    found = job_hours(spec(hours=72, nodes=2, model={**STANDARD, "params": 20e9}), offering())
    assert found == JobHours(72.0, True, ("gradient checkpointing: selective",), "selective", speed="given")


def test_work_rows_carry_the_recomputation_and_the_fabric_notes_together():
    work = {"params": 20e9, "tokens": 1e11, "mfu": 0.4, "batch_tokens": BATCH, "mfu_reference": "A100-80GB"}
    found = job_hours(spec(nodes=2, work=work, model={**STANDARD, "params": 20e9}), offering())
    assert (found.checkpointing, found.recompute) == (True, "selective")
    assert found.notes[0] == "gradient checkpointing: selective"
    assert found.notes[1].startswith("A100-80GB: scaling x") and found.notes[1].endswith(f"({HOW})")
    plain = job_hours(spec(nodes=1, work={**work, "batch_tokens": 4 * 2**20}), offering())
    assert (plain.checkpointing, plain.recompute, plain.notes) == (False, "none", ())


def test_an_unsourced_peak_and_the_scaling_note_are_joined():
    a10g = offering(accelerator="A10G", accelerator_memory_gib=24.0, form_factor=None)
    work = {"params": 1e9, "tokens": 1e10, "mfu": 0.4, "batch_tokens": BATCH}
    found = job_hours(spec(nodes=4, work=work), a10g)
    expected = dp_efficiency(6e9, BATCH, 32, 70e12 * 0.4, 4, 2e9, BUSBW) * KEPT
    assert found.notes == (
        f"A10G: BF16 TFLOPS unsourced [~70]; no calibrated llm speed: peak x MFU; scaling x{expected:.3f} ({HOW})",
    )


@pytest.mark.parametrize(
    ("accelerator", "memory", "params", "nodes"),
    [
        # 1e9 x 16 B = 14.9 GiB in one node's 8 x 72 GiB usable (80 GiB less 10 %)
        pytest.param("A100-80GB", 80.0, 1e9, 1, id="small-model-one-node"),
        # 70e9 x 16 B = 1,043 GiB over 576 GiB per node: 2 nodes
        pytest.param("A100-80GB", 80.0, 70e9, 2, id="70b-two-nodes"),
        # H200 reports 141 GiB (144,384 MiB), not its 143 listed: 8 x 126.9 = 1,015 GiB < 68.5e9 x 16 B = 1,020.7 GiB
        pytest.param("H200", 143.0, 68.5e9, 2, id="reported-memory"),
        pytest.param("A100-80GB", None, 70e9, 1, id="memory-unknown"),
    ],
)
def test_a_replica_spans_the_fewest_nodes_whose_usable_memory_holds_the_state(accelerator, memory, params, nodes):
    from profiles.cost.estimate import _replica_nodes
    from tests.profiles.offering_factory import offering

    node = offering(accelerator=accelerator, accelerator_memory_gib=memory)
    assert _replica_nodes(node, params, 16) == nodes
