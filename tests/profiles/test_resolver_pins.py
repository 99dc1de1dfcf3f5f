"""Hand-computed resolver decisions: each constraint's name, node counts per offering, the rows
shown when the deadline is missed, what the rejections say, and the node count that would meet it.

Work of 272 A100-80GB hours (BERT-class: no per-GPU batch term) on 8 x A100-80GB nodes at $30/h
takes 34 / n hours on n nodes (the all-reduce of GPU-hour work hides behind compute) and, without
node failures, costs $1,020 whatever n."""

import pytest

from profiles import fixes, resolver
from profiles.candidate import Candidate
from profiles.fixes import what_would_meet
from profiles.matching import each_failure, static_failures
from profiles.resolver import NoMatchError, resolve
from profiles.spec import parse_spec
from tests.profiles.offering_factory import offering

WORK = {"gpu_hours": 272, "reference": "A100-80GB", "kind": "bert"}
pytestmark = pytest.mark.usefixtures("no_failures")
FS = {"capacity": "4800GiB", "throughput": 250}
WANTED = frozenset({"A100-80GB"})


def spec(**fields):
    return parse_spec({"accelerators": "A100-80GB", **fields})


def choice(resolution):
    c = resolution.choice.candidate
    return c.nodes, round(c.hours, 4), round(c.usd_total, 2)


@pytest.mark.parametrize(
    ("fields", "node", "failures"),
    [
        pytest.param(
            {"jurisdiction": "cn-mainland"}, {"provider": "alicloud", "region": "cn-beijing"}, [], id="in-china"
        ),
        pytest.param({"jurisdiction": "cn-mainland"}, {}, ["jurisdiction"], id="outside-china"),
        pytest.param({"min_gpu_memory": "1GiB"}, {"accelerator_memory_gib": None}, ["gpu_memory"], id="memory-unknown"),
        pytest.param({"purchase": "on-demand"}, {"on_demand_usd_per_hour": None}, ["price"], id="no-on-demand-price"),
        pytest.param(
            {"purchase": "spot", "spot": {"checkpoint_interval": "1h"}, "file_system": FS},
            {"spot_usd_per_hour": None},
            ["price"],
            id="no-spot-price",
        ),
        pytest.param(
            {"data": {"source": "s3://team/set", "size": "1TiB", "resource_group": "rg"}},
            {"provider": "aws", "zone": "use1-az1"},
            ["data"],
            id="field-the-link-does-not-use",
        ),
        pytest.param(
            {"data": {"source": "s3://team/set"}, "file_system": FS},
            {"provider": "aws", "zone": "use1-az1"},
            [],
            id="s3",
        ),
        pytest.param({"data": {"source": "s3://team/set"}, "file_system": FS}, {"provider": "gcp"}, ["data"], id="gs"),
        pytest.param(
            {"job": {"command": "train.py"}, "file_system": FS}, {"provider": "huaweicloud"}, ["job"], id="no-agent"
        ),
        pytest.param(
            {"job": {"command": "train.py"}, "file_system": FS},
            {"provider": "aws", "instance_type": "p4d.24xlarge"},
            [],
            id="agent",
        ),
        # the node image (the PyTorch DLAMI) does not list p3: no job there
        pytest.param(
            {"job": {"command": "train.py"}, "file_system": FS},
            {"provider": "aws", "instance_type": "p3.16xlarge"},
            ["job"],
            id="image-lists-no-such-type",
        ),
    ],
)
def test_static_failures_name_each_constraint(fields, node, failures):
    assert list(static_failures(spec(hours=10, **fields), WANTED, offering(**node))) == failures


def test_held_capacity_is_a_price():
    held = {"provider": "azure", "instance_type": "Standard_X", "zone": "eastus", "nodes": 2, "usd_per_hour": 0}
    workload = spec(hours=10, nodes=2, reservations=[{**held, "id": "r-1"}])
    assert list(static_failures(workload, WANTED, offering(on_demand_usd_per_hour=None))) == []
    small = spec(hours=10, nodes=3, reservations=[{**held, "id": "r-1"}])  # holds 2 of the 3 nodes
    assert list(static_failures(small, WANTED, offering(on_demand_usd_per_hour=None))) == ["price"]


def test_each_failure_adds_the_job_check():
    workload = spec(hours=10, model={"params": 1e9, "layers": 2, "hidden": 1024, "heads": 8, "seq_len": 1024})
    assert list(each_failure(workload, WANTED, offering(accelerator_memory_gib=None))) == ["memory_fit"]
    assert list(each_failure(workload, WANTED, offering(provider="gcp", accelerator_memory_gib=None))) == ["memory_fit"]
    assert list(each_failure(spec(hours=10, providers=["aws"]), WANTED, offering())) == ["provider"]


def _seven_zones():
    return [offering(zone=f"eastus-{i}", on_demand_usd_per_hour=30.0 + i) for i in range(7)]


def test_top_rows_reasons_and_counts():
    resolution = resolve(spec(hours=10), _seven_zones())
    assert len(resolution.alternatives) == 4 and resolution.searched == 7 and resolution.matched == 7
    assert resolution.choice.reason == "cheapest job of 7 candidates"
    assert (resolution.deadline_met, resolution.to_meet, resolution.rejected) == (None, "", {})
    assert resolve(spec(hours=10), _seven_zones(), top=1).alternatives == ()


def test_rejections_are_recorded_only_for_offerings_that_reached_the_job_check():
    model = {"params": 1e9, "layers": 2, "hidden": 1024, "heads": 8, "seq_len": 1024}
    offerings = [
        offering(),
        offering(instance_type="Standard_Y", accelerator_memory_gib=None),
        offering(provider="gcp", accelerator_memory_gib=None),  # removed by `providers` first
    ]
    resolution = resolve(spec(hours=10, model=model, providers=["azure"]), offerings)
    assert resolution.rejected == {"memory_fit": (1, "Standard_Y: A100-80GB memory per GPU unknown")}


def test_data_and_job_rejections_say_why():
    data = {"source": "s3://team/set", "size": "100GiB"}
    offerings = [offering(provider="aws", zone="use1-az1"), offering(provider="gcp", region="us-central1")]
    found = resolve(spec(hours=10, data=data, file_system=FS), offerings).rejected
    assert found == {
        "data": (
            1,
            "data.source: 's3://team/set' is not a Cloud Storage bucket (gs://BUCKET/PREFIX), the only kind gcp "
            "can link; it is AWS's (aws) bucket; copy the data there or pick the cloud that holds it (aws)",
        )
    }
    offerings = [
        offering(provider="aws", zone="use1-az1", instance_type="p4d.24xlarge"),
        offering(provider="huaweicloud"),
    ]
    found = resolve(spec(hours=10, job={"command": "train.py"}, file_system=FS), offerings).rejected
    assert found == {
        "job": (
            1,
            "job: the huaweicloud component does not run a job yet (the node agent ships on aws, azure, gcp); "
            "remove job and start torchrun by hand, or choose one of those clouds",
        )
    }


def _row(hours, usd):
    return Candidate(offering(), "on-demand", 1, hours, usd / hours)


def test_missed_deadline_rows_within_five_percent_of_the_fastest():
    fastest, edge, past = _row(20.0, 300.0), _row(20 * (1 + resolver.CLOSE), 200.0), _row(21.5, 100.0)
    ranked, met, bound = resolver._rank(spec(hours=10, deadline="15h"), [past, fastest, edge])
    assert (ranked, met, bound) == ([edge, fastest], False, 20 * (1 + resolver.CLOSE))
    ranked, met, bound = resolver._rank(spec(hours=10, deadline="20h"), [past, fastest, edge])
    assert (ranked, met, bound) == ([fastest], True, 20.0)  # exactly on the deadline meets it
    assert resolver._rank(spec(hours=10), [past, fastest, edge])[1:] == (None, None)  # no deadline, no bound


def test_rdma_skips_multi_node_counts_of_an_ethernet_offering():
    workload = spec(work=WORK, nodes="1-2", interconnect="rdma", deadline="20h")
    resolution = resolve(workload, [offering(interconnect="ethernet", network_gbps=100.0)])
    assert choice(resolution) == (1, 34.0, 1020.0) and resolution.deadline_met is False


def test_a_node_range_takes_each_count_at_its_own_hours():
    resolution = resolve(spec(work=WORK, nodes="1-4", deadline="10h"), [offering()])
    assert choice(resolution) == (4, 8.5, 1020.0) and resolution.deadline_met is True


def test_the_cheapest_count_that_meets_the_deadline_not_the_cheapest():
    # 7B x 1e10 tokens in 8,192-token steps (MFU measured on this A100-80GB): 124.0 h on 1 node
    # ($3,719), 65.5 h on 2 ($3,933), 62.2 h on 3 ($5,594), 67.5 h on 4.
    work = {"params": 7e9, "tokens": 1e10, "mfu": 0.4, "batch_tokens": 8192, "mfu_reference": "A100-80GB"}
    assert resolve(spec(work=work, nodes="1-4"), [offering()]).choice.candidate.nodes == 1
    assert resolve(spec(work=work, nodes="1-4", deadline="100h"), [offering()]).choice.candidate.nodes == 2


BIG = {"layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096}


def test_a_count_whose_state_does_not_fit_is_skipped_not_fatal():
    # 40B x 16 B over 8 GPUs = 74.5 GiB > 72 usable; over 16 GPUs 37.3 GiB + 17 GiB activations fits.
    resolution = resolve(spec(hours=10, nodes="1-2", model={**BIG, "params": 40e9}), [offering()])
    assert resolution.choice.candidate.nodes == 2


def test_when_no_count_fits_the_error_gives_the_numbers():
    with pytest.raises(NoMatchError) as error:
        resolve(spec(hours=10, nodes="1-2", model={**BIG, "params": 400e9}), [offering()])
    assert "Standard_X: needs" in str(error.value) and "A100-80GB has 72.0 GiB usable" in str(error.value)


@pytest.mark.parametrize(
    ("deadline", "nodes", "hours"),
    [
        pytest.param("17.5h", 2, 17.0, id="one-more-node"),
        pytest.param("17h", 2, 17.0, id="exactly-on-the-deadline"),
        pytest.param("11.5h", 3, 11.3, id="three-nodes"),
        pytest.param("1.01h", 64, 0.5, id="past-33-the-powers-of-two"),
    ],
)
def test_what_would_meet_is_the_fewest_nodes_that_do(deadline, nodes, hours):
    resolution = resolve(spec(work=WORK, nodes=1, interconnect="rdma", deadline=deadline), [offering()])
    assert resolution.to_meet == (
        f"to meet it: {nodes} nodes of Standard_X on-demand finish in {hours:,.1f} h for $1,020.00 "
        f"(set `nodes: 1-{nodes}` or `nodes: auto`)"
    )


def test_what_would_meet_counts_up_from_the_rows_own_nodes():
    # Two nodes take 17 h; three (not a power of two) take 11.3 h.
    resolution = resolve(spec(work=WORK, nodes=2, deadline="11.5h"), [offering()])
    assert resolution.to_meet.startswith("to meet it: 3 nodes of Standard_X on-demand finish in 11.3 h")


def test_what_would_meet_stops_at_the_largest_count_it_tries(monkeypatch):
    monkeypatch.setattr(fixes, "MAX_SUGGESTED_NODES", 64)
    resolution = resolve(spec(work=WORK, nodes=1, deadline="0.54h"), [offering()])  # 63 needed: 64 is tried
    assert resolution.to_meet.startswith("to meet it: 64 nodes of Standard_X")
    resolution = resolve(spec(work=WORK, nodes=1, deadline="0.5h"), [offering()])  # 68 needed
    assert resolution.to_meet == (
        "to meet it: no node count up to 64 of Standard_X does; allow faster accelerators or other regions, "
        "or relax the deadline"
    )


def test_more_ethernet_nodes_are_suggested_only_when_rdma_is_not_required():
    ethernet = offering(interconnect="ethernet", network_gbps=100.0)
    free = resolve(spec(work=WORK, nodes=1, deadline="17.5h"), [ethernet])
    assert free.to_meet.startswith("to meet it: 2 nodes of Standard_X")
    strict = resolve(spec(work=WORK, nodes=1, interconnect="rdma", deadline="17.5h"), [ethernet])
    assert strict.to_meet == (
        "to meet it: Standard_X has no RDMA fabric, so `interconnect: rdma` keeps it to one node; without it "
        "2 nodes finish in 17.0 h for $1,020.00 (set `interconnect: none` and `nodes: 1-2` or `nodes: auto`); "
        "or allow accelerators or regions with an RDMA fabric, or relax the deadline"
    )


@pytest.mark.parametrize(
    ("nodes", "deadline", "fix"),
    [
        pytest.param("auto", "4h", "9 nodes finish in 3.8 h for $1,020.00 (set `interconnect: none`);", id="auto"),
        pytest.param(1, "4h", "(set `interconnect: none` and `nodes: 1-9` or `nodes: auto`);", id="fixed-count"),
        pytest.param(
            "auto", "1h", ", and no node count up to 1024 meets the deadline even without RDMA;", id="not-even-without"
        ),
        pytest.param("auto", "100h", None, id="deadline-met-asks-nothing"),
    ],
)
def test_rdma_keeping_a_row_to_one_node_is_named_with_the_fix_in_the_workloads_words(nodes, deadline, fix):
    # Over 100 Gbps Ethernet (no RDMA) 9 nodes take 3.8 h and no count reaches 1 h; one node (34 h) meets 100 h.
    ethernet = offering(interconnect="ethernet", network_gbps=100.0)
    resolution = resolve(spec(work=WORK, nodes=nodes, interconnect="rdma", deadline=deadline), [ethernet])
    if fix is None:
        assert not resolution.to_meet
        return
    assert resolution.to_meet.startswith("to meet it: Standard_X has no RDMA fabric, so `interconnect: rdma`")
    assert fix in resolution.to_meet and "faster accelerators or other regions" not in resolution.to_meet.split(fix)[0]


@pytest.mark.parametrize(
    ("nodes", "deadline", "fix"),
    [
        pytest.param("auto", "0.5h", "(`nodes: auto` stops at 64 nodes; set `nodes: 1-68`)", id="auto-stops-at-64"),
        pytest.param("2-16", "0.5h", "(set `nodes: 2-128` (the range stops at 16))", id="range-too-narrow"),
        pytest.param("2-16", "1.2h", "(set `nodes: 2-29` (the range stops at 16))", id="range-below-auto-bound"),
        pytest.param(4, "0.5h", "(set `nodes: 4-128`)", id="fixed-beyond-auto-offers-no-auto"),
        pytest.param(4, "1.2h", "(set `nodes: 4-29` or `nodes: auto`)", id="fixed-within-auto"),
    ],
)
def test_the_node_fix_is_one_the_workload_does_not_already_have(nodes, deadline, fix):
    # 34 / n hours: 29 nodes meet 1.2 h (28 take 1.21 h); 0.5 h needs 68, found from 64 nodes
    # up one by one, or else at the next power of two tried (128).
    resolution = resolve(spec(work=WORK, nodes=nodes, deadline=deadline), [offering()])
    assert resolution.to_meet.endswith(fix), resolution.to_meet


def test_held_capacity_is_never_suggested_beyond_what_is_held():
    held = {"provider": "azure", "instance_type": "Standard_X", "zone": "eastus", "nodes": 2, "usd_per_hour": 0}
    workload = spec(work=WORK, nodes=2, deadline="10h", reservations=[{**held, "id": "r-1"}])
    resolution = resolve(workload, [offering()])
    assert resolution.choice.candidate.purchase == "reservation"
    assert resolution.to_meet.startswith("to meet it: no node count up to 1024 of Standard_X does")


def test_what_would_meet_reads_the_best_rows_own_offering():
    best = resolve(spec(work=WORK, nodes=1, deadline="17.5h"), [offering()]).choice.candidate
    assert what_would_meet(spec(work=WORK, nodes=1, deadline="17.5h"), best).startswith("to meet it: 2 nodes")


def test_the_data_rejection_shown_is_the_one_from_the_cloud_that_holds_the_bucket():
    # GCP cannot read an S3 bucket, and AWS's link takes no resource group; AWS's reason is the
    # one that helps, whichever offering comes first. (Without a size or a file system the spec
    # itself is refused: nothing to size the linked file system from.)
    workload = spec(hours=10, data={"source": "s3://team/set", "size": "1TiB", "resource_group": "rg"})
    with pytest.raises(NoMatchError) as error:
        resolve(workload, [offering(provider="gcp", region="us-central1"), offering(provider="aws", zone="use1-az1")])
    assert "(data.resource_group: aws does not use it" in str(error.value)
