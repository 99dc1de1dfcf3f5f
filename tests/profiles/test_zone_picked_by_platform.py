"""A SageMaker training job cannot choose its zone (CreateTrainingJob has none): its rows are one
per region at the dearest zone's price, never ranked or split by EC2 zone, its stack names the
region, its fallbacks never switch zones and no row speaks of a node group. HyperPod's instance
groups sit in the stack's subnet, so its rows stay per zone."""

from __future__ import annotations

from pathlib import Path

import pytest

from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import derived, picks_zone, region_row, zone_said
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.check import catalog_problems
from profiles.stack.fallbacks import fallback_rows
from profiles.stack.writer import cluster_config, keep_zone

# p4d.24xlarge in three zones of us-east-1: the catalog's spot outlier in az1 (issue #27) and
# two ordinary zones; on-demand is one regional price.
AZ1 = Offering(
    "aws", "us-east-1", "use1-az1", "p4d.24xlarge", "A100", 8, 40.0, "SXM", 96.0, 1152.0, "efa", 4, 400.0,
    32.7726, 2.4655, "2026-11-20", "skypilot-catalog",
)  # fmt: skip
AZ2 = AZ1._replace(zone="use1-az2", spot_usd_per_hour=8.19, catalog_date="2026-12-01")
AZ4 = AZ1._replace(zone="use1-az4", spot_usd_per_hour=7.88, catalog_date="2026-12-01")
P5 = AZ1._replace(instance_type="p5.48xlarge", accelerator="H100", on_demand_usd_per_hour=55.04, spot_usd_per_hour=12.0)
P5_AZ2 = P5._replace(zone="use1-az2", spot_usd_per_hour=11.0)
ROWS = [AZ1, AZ2, AZ4, P5, P5_AZ2]


def _spec(platform: str, **extra):
    base = {
        "name": "sm",
        "accelerators": ["A100:8", "H100:8"],
        "nodes": 2,
        "interconnect": "none",
        "purchase": "any",
        "hours": "24h",
        "providers": ["aws"],
        "platform": platform,
        "spot": {"checkpoint_interval": "1h"},
        "job": {"command": "train.py"},
    }
    if platform == "hyperpod":  # a persistent cluster: no job submitted, checkpoints on its file system
        base["file_system"] = {"capacity": "1200GiB"}
        del base["job"]
    return parse_spec({**base, **extra})


@pytest.mark.parametrize(
    ("rows", "on_demand", "spot", "date", "says"),
    [
        pytest.param([AZ1, AZ2, AZ4], 32.7726, 8.19, "2026-11-20", "3 zone(s) (the VM's spot $2.47-8.19", id="zones"),
        pytest.param([AZ2], 32.7726, 8.19, "2026-12-01", "1 zone(s)", id="one-zone"),
        pytest.param([AZ2._replace(spot_usd_per_hour=None)], 32.7726, None, "2026-12-01", "1 zone(s)", id="no-spot"),
    ],
)
def test_a_region_row_is_priced_at_the_dearest_zone(rows, on_demand, spot, date, says) -> None:
    from clouds.registry import CLOUDS

    row = region_row(rows, CLOUDS["aws"].platforms["sagemaker"])
    assert (row.zone, row.on_demand_usd_per_hour, row.spot_usd_per_hour) == ("us-east-1", on_demand, spot)
    assert row.catalog_date == date and says in row.price_note
    assert "picks the job's zone" in row.price_note


def test_sagemaker_rows_are_one_per_region_and_hyperpod_rows_one_per_zone() -> None:
    sagemaker = [o for o in derived(ROWS, "sagemaker") if o.platform == "sagemaker"]
    assert sorted((o.instance_type, o.zone) for o in sagemaker) == [
        ("p4d.24xlarge", "us-east-1"),
        ("p5.48xlarge", "us-east-1"),
    ]
    [p4d] = [o for o in sagemaker if o.instance_type == "p4d.24xlarge"]
    assert p4d.spot_usd_per_hour == pytest.approx(8.19 * 1.15)  # az1's $2.47 cannot be counted on
    hyperpod = [o for o in derived(ROWS, "hyperpod") if o.platform == "hyperpod"]
    assert sorted(o.zone for o in hyperpod) == ["use1-az1", "use1-az1", "use1-az2", "use1-az2", "use1-az4"]


def test_a_sagemaker_pick_falls_back_within_its_region_with_no_group_or_zone() -> None:
    spec = _spec("sagemaker")
    resolution = resolve(spec, ROWS, top=10)
    shown = [resolution.choice, *resolution.alternatives]
    assert {r.candidate.offering.zone for r in shown} == {"us-east-1"}
    assert all("its group also launches" not in r.reason for r in shown)
    choice = resolution.choice.candidate
    assert (choice.offering.instance_type, choice.purchase) == ("p4d.24xlarge", "spot")
    rows = fallback_rows(choice, resolution.movable, spec.interconnect, False)
    assert rows and {row["zone"] for row in rows} == {"us-east-1"}
    assert [(row["instance_type"], row["purchase"]) for row in rows][:2] == [
        ("p5.48xlarge", "spot"),
        ("p4d.24xlarge", "on-demand"),
    ]
    config = cluster_config(spec, choice, "v", resolution.movable)
    assert (config.zone, config.fallback_types, config.fallback_zones) == ("us-east-1", (), ())
    assert catalog_problems(config, ROWS) == []  # no zone to confirm: SageMaker picks it


def test_a_vm_or_hyperpod_stack_still_names_and_checks_its_zone() -> None:
    spec = _spec("hyperpod")
    choice = resolve(spec, ROWS).choice.candidate
    assert choice.offering.zone.startswith("use1-az")
    config = cluster_config(spec, choice, "v")
    assert zone_said("aws", "hyperpod", config.zone) == config.zone and not picks_zone("aws", "hyperpod")
    assert zone_said("aws", "sagemaker", "us-east-1") == "Amazon SageMaker picks the zone"
    region_wide = config.model_copy(update={"zone": "us-east-1", "platform": None})
    assert any(p.startswith("zone: 'us-east-1' is not a zone") for p in catalog_problems(region_wide, ROWS))


def test_a_rewrite_of_a_sagemaker_stack_does_not_keep_an_old_zone(tmp_path: Path) -> None:
    """A stack written before rows were per region names an EC2 zone; the rewrite names the region."""
    spec = _spec("sagemaker")
    config = cluster_config(spec, resolve(spec, ROWS).choice.candidate, "v")
    path = tmp_path / "Pulumi.sm.yaml"
    path.write_text("config:\n  trainstack:cluster:\n    provider: aws\n    region: us-east-1\n    zone: use1-az6\n")
    assert keep_zone(config, path).zone == "us-east-1"
    vm = config.model_copy(update={"platform": None})
    assert keep_zone(vm, path).zone == "use1-az6"  # a region-priced VM pick keeps the stack's zone id
