"""`resolve` and `plan` state the same cost for the same stack, on every cloud and file-system kind.

For each workload the choice `resolve` ranks is written as a stack (`cluster_config`) and priced
as `plan`, the stack header and the budget policy price it (`price_stack`, the real catalog):
the job total and USD/hour (everything per hour of the run) agree to the cent, whatever the file
system is (a recorded list price, a third-party one, the explicit estimate of a cloud without a
price), however the data is staged (a lazy link, an import job, a copy from one node) and when
the row sized the file system up to feed its GPUs.
"""

from __future__ import annotations

import pytest

from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.price import price_stack
from profiles.stack.writer import cluster_config

BASE = {"accelerators": ["A100:8", "A100-80GB:8", "H100:8"], "nodes": 2, "interconnect": "rdma"}
IMAGES = {"work": {"images": 1281167, "epochs": 90, "flops_per_image": "24.5G", "mfu": 0.16}}
DATA = {"size": "2TiB", "files": "1.28M", "passes": 90}
BLOB = "https://teamdata.blob.core.windows.net/datasets/imagenet"


GS = {"source": "gs://team/imagenet", **DATA, "passes": 2}
SPOT = {"purchase": "spot", "spot": {"checkpoint_interval": "1h"}}
CHINA = {"hours": 72, "jurisdiction": "cn-mainland"}
# id, the service the choice creates, the workload's own fields
CASES = [
    ("aws-fsx-spot-listed", "FSx", {"providers": ["aws"], "hours": 72, **SPOT, "file_system": {"capacity": "4800GiB"}}),
    ("aws-fsx-lazy-link", "FSx", {"providers": ["aws"], **IMAGES, "data": {"source": "s3://team/x", **DATA}}),
    ("gcp-filestore-rsync", "filestore", {"providers": ["gcp"], "hours": 10, "data": GS}),
    (
        "gcp-lustre-import",
        "lustre",
        {"providers": ["gcp"], "hours": 10, "file_system": {"capacity": "36000GiB"}, "data": GS},
    ),
    ("gcp-sized-up", "lustre", {"providers": ["gcp"], **IMAGES, "data": {**GS, "passes": 90}}),
    (
        "azure-amlfs-estimate",
        "Azure",
        {"providers": ["azure"], "hours": 72, "data": {"source": BLOB, "resource_group": "rg", **DATA}},
    ),
    (
        "alicloud-cpfs-cny",
        "CPFS",
        {
            "providers": ["alicloud"],
            "accelerators": ["A100-80GB:8"],
            **CHINA,
            "file_system": {"capacity": "4800GiB", "throughput": 100},
        },
    ),
    (
        "tencent-estimate",
        "CFS Turbo",
        {
            "providers": ["tencentcloud"],
            "accelerators": ["A100:8"],
            **CHINA,
            "interconnect": "none",
            "file_system": {"capacity": "4800GiB"},
        },
    ),
]


@pytest.mark.parametrize(
    ("fields", "service"), [pytest.param(fields, service, id=name) for name, service, fields in CASES]
)
def test_resolve_and_plan_state_the_same_total(real_catalog, fields, service):
    spec = parse_spec({"name": "agree", **BASE, **fields})
    chosen = resolve(spec, real_catalog.offerings).choice.candidate
    assert chosen.storage is not None and service in chosen.storage.service
    config = cluster_config(spec, chosen, real_catalog.version)
    price = price_stack(config, real_catalog.offerings, real_catalog.version)
    assert price.cost is not None and price.usd_total is not None
    # the stack keeps hours to 4 decimals: at most 0.00005 h x USD/hour apart
    assert price.usd_total == pytest.approx(chosen.usd_total, abs=0.005 + 0.00005 * chosen.total_usd_per_hour)
    assert price.total_usd_per_hour == pytest.approx(chosen.total_usd_per_hour, rel=1e-6, abs=1e-4)
    # the budget policy checks the same USD/hour (the catalog prices the stack: verified)
    assert price.checked_usd_per_hour == price.total_usd_per_hour
    assert price.usd_storage == pytest.approx(chosen.usd_storage, abs=0.005 + 0.00005 * chosen.storage.usd_per_hour)
    assert (price.cost.usd_requests or 0.0) == pytest.approx(chosen.usd_requests or 0.0, abs=0.005)


FALLBACK = {
    "providers": ["aws"],
    "hours": 72,
    "purchase": "spot",
    "spot": {"checkpoint_interval": "1h", "fallback": "on-demand after 30m"},
    "file_system": {"capacity": "4800GiB"},
    "job": {"command": "/fsx/train.py"},
}


def test_the_spot_fallbacks_gap_fill_is_in_both_totals(real_catalog):
    """A spot row with `fallback: on-demand after 30m` counts the on-demand gap fill (an upper
    bound) in its job total, and `plan` prices the written stack with the same fill."""
    spec = parse_spec({"name": "agree", **BASE, **FALLBACK})
    chosen = resolve(spec, real_catalog.offerings).choice.candidate
    assert chosen.purchase == "spot" and chosen.usd_fill is not None and chosen.usd_fill > 0
    assert any(
        note.startswith("spot fallback: on-demand fills a short spot group after 30 min") for note in chosen.notes
    )
    config = cluster_config(spec, chosen, real_catalog.version)
    price = price_stack(config, real_catalog.offerings, real_catalog.version)
    assert price.cost is not None and price.cost.fill_usd == pytest.approx(chosen.usd_fill, rel=1e-6)
    assert price.usd_total == pytest.approx(chosen.usd_total, abs=0.005 + 0.00005 * chosen.total_usd_per_hour)
    assert "on-demand gap fill (at most)" in price.cost.job_text()


def test_a_row_says_which_types_its_group_falls_back_to_and_the_cost_on_the_last(real_catalog):
    spec = parse_spec(
        {
            "name": "types",
            "accelerators": ["H100:8", "H200:8"],
            "nodes": 2,
            "interconnect": "rdma",
            "purchase": "on-demand",
            "hours": 10,
            "providers": ["aws"],
        }
    )
    resolution = resolve(spec, real_catalog.offerings)
    rows = [resolution.choice, *resolution.alternatives]
    said = [r for r in rows if "its group also launches p5en.48xlarge ($" in r.reason]
    assert said, [r.reason for r in rows]
    row = said[0].candidate
    last = next(
        c
        for c in resolution.candidates
        if c.offering.instance_type == "p5en.48xlarge"
        and c.offering.zone == row.offering.zone
        and c.purchase == row.purchase
        and c.nodes == row.nodes
    )
    assert f"(${last.usd_total:,.2f} per job in {last.hours:,.1f} h on the last)" in said[0].reason
