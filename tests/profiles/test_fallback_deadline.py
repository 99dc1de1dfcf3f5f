"""A stack's fallbacks keep to the pick's deadline class: the rows `trainstack up` may move to
(`trainstack:fallbacks`) and the types the pick's node group also launches (`fallback_types`)
meet the deadline when the pick does, and when no row meets it they are no slower than the rows
resolve shows (`CLOSE` over the fastest). One case per shape: TPU slices with `nodes: auto`,
GPU VMs with `nodes: auto`, fixed nodes on AWS (a mixed group) and GCP, and a missed deadline."""

from __future__ import annotations

import pytest

from profiles.resolver import CLOSE, resolve
from profiles.spec import parse_spec
from profiles.stack.fallbacks import fallback_reason, fallback_rows, group_fallback_types

SPOT = {"spot": {"checkpoint_interval": "2h"}, "file_system": {"capacity": "2400GiB"}, "purchase": "any"}
LLM_7B = {"params": "7B", "mfu": 0.4}
GPUS = ["H100:8", "A100:8", "A100-80GB:8", "H200:8"]
CASES = [
    pytest.param(
        {
            "accelerators": ["tpu-v5p", "tpu-v6e", "H100:8"],
            "nodes": "auto",
            "interconnect": "rdma",
            "work": {"params": "70B", "tokens": "1T", "mfu": 0.4},
            "deadline": "30d",
            "providers": ["gcp"],
            **SPOT,
        },
        True,
        id="tpu-slices-auto",  # finding 1: tpu-v6e-8 x64 (1,860 h) was the first fallback of a 720 h job
    ),
    pytest.param(
        {
            "accelerators": ["A10G:1", "L4:1", "A100:1"],
            "nodes": "auto",
            "interconnect": "none",
            "purchase": "on-demand",
            "work": {"params": "1B", "tokens": "200B", "mfu": 0.4},
            "deadline": "7d",
            "providers": ["aws"],
        },
        True,
        id="gpu-vms-auto",  # g6.xlarge x64 (175 h) was the first fallback of a g6.8xlarge x64 pick of a 168 h job
    ),
    pytest.param(
        {
            "accelerators": ["A10G:1", "L4:1", "A100:1"],
            "nodes": "auto",
            "interconnect": "none",
            "purchase": "on-demand",
            "work": {"params": "1B", "tokens": "200B", "mfu": 0.4},
            "deadline": "4d",
            "providers": ["gcp"],
        },
        False,
        id="auto-deadline-missed",  # g2-standard-4 x64 (175 h) beside an a2-highgpu-1g x64 pick at 149 h
    ),
    pytest.param(
        {
            "accelerators": GPUS,
            "nodes": 4,
            "interconnect": "rdma",
            "work": {**LLM_7B, "tokens": "200B"},
            "deadline": "10d",
            "providers": ["aws"],
            **SPOT,
        },
        True,
        id="fixed-nodes-aws",  # p4d (418 h) was a row and a type of the p5en group of a 240 h job
    ),
    pytest.param(
        {
            "accelerators": ["H100:8", "A100:8", "A100-80GB:8"],
            "nodes": 2,
            "interconnect": "none",
            "purchase": "on-demand",
            "work": {**LLM_7B, "tokens": "50B"},
            "deadline": "6d",
            "providers": ["gcp"],
        },
        True,
        id="fixed-nodes-gcp",  # a2-highgpu-8g (203 h) is cheaper than the a3 pick of a 144 h job
    ),
    pytest.param(
        {
            "accelerators": ["A100:8", "H100:8"],
            "nodes": 2,
            "interconnect": "rdma",
            "work": {**LLM_7B, "tokens": "500B"},
            "deadline": "3d",
            "providers": ["aws"],
            **SPOT,
        },
        False,
        id="deadline-missed",  # p4d at twice the hours was a row and a group type
    ),
]


@pytest.mark.parametrize(("workload", "met"), CASES)
def test_fallbacks_keep_to_the_picks_deadline_class(real_catalog, workload: dict, met: bool) -> None:
    spec = parse_spec({"name": "fb", **workload})
    resolution = resolve(spec, real_catalog.offerings)
    bound = resolution.hours_bound
    assert resolution.deadline_met is met and bound is not None
    shown = [resolution.choice, *resolution.alternatives]
    if met:
        assert bound == spec.deadline_hours
    else:  # the rows resolve shows when none meets the deadline: within CLOSE of the fastest
        assert bound > spec.deadline_hours and all(r.candidate.hours <= bound for r in shown)
        assert bound == pytest.approx(resolution.choice.candidate.hours * (1 + CLOSE), rel=CLOSE)
    # the case means something: a cheaper or other row outside the class exists
    assert any(c.hours > bound for c in resolution.candidates)
    choice, movable = resolution.choice.candidate, resolution.movable
    assert all(c.hours <= bound for c in movable)
    rows = fallback_rows(choice, movable, spec.interconnect, spec.file_system is not None)
    assert rows and all(row["hours"] <= bound for row in rows), [(r["instance_type"], r["hours"]) for r in rows]
    for c in [choice, *(r.candidate for r in shown)]:
        for kind in group_fallback_types(c, movable, spec.interconnect):
            same = [
                o
                for o in resolution.candidates
                if (o.offering.instance_type, o.offering.zone, o.purchase, o.nodes)
                == (kind, c.offering.zone, c.purchase, c.nodes)
            ]
            assert same and min(o.hours for o in same) <= bound, kind
    for r in shown:  # the row's reason names only group types within the class, with their hours
        assert r.reason.endswith(fallback_reason(r.candidate, movable, spec.interconnect))


def test_a_group_type_past_the_deadline_is_left_out_of_the_group(real_catalog) -> None:
    """4 nodes on AWS: p4d (A100) may share p5en's group, but runs 418 h of a 240 h job."""
    workload = next(case.values[0] for case in CASES if case.id == "fixed-nodes-aws")
    spec = parse_spec({"name": "fb", **workload})
    resolution = resolve(spec, real_catalog.offerings)
    choice = resolution.choice.candidate
    assert choice.offering.instance_type == "p5en.48xlarge"
    assert "p4d.24xlarge" in group_fallback_types(choice, resolution.candidates, spec.interconnect)
    assert group_fallback_types(choice, resolution.movable, spec.interconnect) == ("p5.48xlarge",)
    assert "p4d" not in resolution.choice.reason
