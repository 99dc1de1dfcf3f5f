"""Offerings listed in CNY: the Alibaba snapshot, recorded exchange rates, jurisdiction."""

import datetime as dt
import json
import shutil

import pytest

from profiles.catalog.build import DATA_DIR, DEFAULT_SOURCE, build
from profiles.catalog.loader import load_catalog
from profiles.catalog.rates import RateError, set_rate
from profiles.catalog.sources.alicloud import build_alicloud
from profiles.resolver import resolve
from profiles.spec import parse_spec

TODAY = dt.date(2026, 11, 29)


@pytest.fixture()
def data(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target, ignore=shutil.ignore_patterns("snapshots"))
    return target


def test_alibaba_snapshot_rows_are_cny_estimates():
    rows = build_alicloud(None, "unused")
    assert len(rows) == 43
    assert {o.currency for o in rows} == {"CNY"} and all(o.on_demand_usd_per_hour is None for o in rows)
    (rdma,) = [o for o in rows if o.instance_type == "ecs.ebmgn7ex.32xlarge"]
    assert (rdma.region, rdma.accelerator, rdma.accelerator_count, rdma.on_demand_native) == ("cn-beijing", "A100-80GB", 8, 270.8333)
    assert rdma.rdma and rdma.price_note.startswith("estimate: third-party snapshot")
    assert not [o for o in rows if o.instance_type == "ecs.ebmgn7e.32xlarge"]  # GPU model unsourced


def test_without_a_rate_cny_rows_are_left_out(data):
    catalog = load_catalog(data)
    assert not [o for o in catalog.offerings if o.provider == "alicloud"]
    assert catalog.left_out == {"CNY": 43}


def test_recorded_rate_converts_to_usd_and_survives_a_rebuild(data):
    set_rate(data, "CNY", 7.0, "2026-11-27", "test rate", today=TODAY)
    catalog = load_catalog(data, providers=("alicloud",), today=TODAY)
    ebm = next(o for o in catalog.offerings if o.instance_type == "ecs.ebmgn7ex.32xlarge")
    assert ebm.on_demand_usd_per_hour == pytest.approx(270.8333 / 7.0, abs=1e-6)
    assert catalog.left_out == {} and catalog.rates["CNY"]["source"] == "test rate"
    meta = build(DEFAULT_SOURCE, data, "2026-11-29")
    assert meta["exchange_rates"]["CNY"] == {"per_usd": 7.0, "as_of": "2026-11-27", "source": "test rate"}


def test_mainland_china_workload_resolves_to_alibaba_with_both_currencies_and_estimate_flag(data):
    set_rate(data, "CNY", 7.0, "2026-11-27", "test rate", today=TODAY)
    spec = parse_spec({"accelerators": "A100-80GB:8", "nodes": 2, "interconnect": "rdma", "purchase": "on-demand",
                       "hours": 72, "jurisdiction": "cn-mainland"})
    choice = resolve(spec, load_catalog(data, today=TODAY).offerings).choice.candidate
    assert (choice.offering.provider, choice.offering.instance_type) == ("alicloud", "ecs.ebmgn7ex.32xlarge")
    assert choice.usd_per_hour == pytest.approx(2 * 270.8333 / 7.0, abs=1e-5)
    assert "listed as 270.83 CNY/h per node" in choice.notes
    assert any(n.startswith("estimate: third-party snapshot") for n in choice.notes)



@pytest.mark.parametrize(("today", "used"), [(TODAY, True), (dt.date(2026, 12, 28), True), (dt.date(2026, 12, 29), False)])
def test_a_rate_is_used_for_31_days_then_its_offerings_are_left_out(data, today, used):
    set_rate(data, "CNY", 7.0, "2026-11-27", "test rate", today=TODAY)
    catalog = load_catalog(data, providers=("alicloud",), today=today)
    assert bool(catalog.offerings) is used
    assert catalog.left_out == ({} if used else {"CNY": 43})
    assert catalog.stale_rates == ({} if used else {"CNY": "2026-11-27"})
    if not used:
        assert catalog.left_out_reason("CNY").startswith(
            "the recorded USD/CNY rate (as of 2026-11-27) is more than 31 days old; record one with "
            "`trainstack catalog refresh-rate CNY`")


def test_a_hand_edited_rate_dated_in_the_future_or_undated_is_not_used(data):
    meta_path = data / "catalog.json"
    meta = json.loads(meta_path.read_text())
    for as_of, shown in (("2026-12-01", "2026-12-01"), ("", "no date"), ("soon", "soon")):
        meta["exchange_rates"] = {"CNY": {"per_usd": 7.0, "as_of": as_of, "source": "hand edit"}}
        meta_path.write_text(json.dumps(meta))
        catalog = load_catalog(data, providers=("alicloud",), today=TODAY)
        assert not catalog.offerings and catalog.stale_rates == {"CNY": shown}

@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("usd", 7.1, "2026-11-27", "x"), "currency: 'usd' is not a 3-letter ISO code"),
        (("CNY", 0, "2026-11-27", "x"), "rate: 0 must be a positive number"),
        (("CNY", 7.1, "27/11/2026", "x"), "--as-of: '27/11/2026' is not a date"),
        (("CNY", 7.1, "2026-12-05", "x"), "--as-of: 2026-12-05 must be within the last 31 days"),
        (("CNY", 7.1, "2026-01-01", "x"), "--as-of: 2026-01-01 must be within the last 31 days"),
        (("CNY", 7.1, "2026-11-27", "  "), "--source: say where the rate comes from"),
    ],
)
def test_bad_rates_are_refused_and_nothing_is_written(data, args, message):
    before = (data / "catalog.json").read_bytes()
    with pytest.raises(RateError, match=message):
        set_rate(data, *args, today=TODAY)
    assert (data / "catalog.json").read_bytes() == before
    assert "exchange_rates" not in json.loads(before)


def test_alibaba_spot_pick_says_it_gets_no_deployment_set():
    
    row = next(o for o in build_alicloud(None, "x") if o.instance_type == "ecs.gn7i-c8g1.2xlarge")
    priced = row._replace(on_demand_usd_per_hour=1.3, spot_usd_per_hour=0.4)
    spec = parse_spec({"accelerators": "A10:1", "hours": 5, "purchase": "any", "spot": {"checkpoint_interval": "1h"},
                       "file_system": {"capacity": "1200GiB", "throughput": 100}})
    resolution = resolve(spec, [priced])
    spot, on_demand = resolution.choice.candidate, resolution.alternatives[0].candidate
    assert spot.purchase == "spot"
    assert any("cannot join a deployment set" in n for n in spot.notes)
    assert not any("deployment set" in n for n in on_demand.notes)


def test_region_priced_alibaba_rows_say_the_stack_needs_a_zone(data):
    set_rate(data, "CNY", 7.0, "2026-11-27", "test rate", today=TODAY)
    spec = parse_spec({"accelerators": "A10:1", "hours": 1, "providers": "alicloud"})
    choice = resolve(spec, load_catalog(data, today=TODAY).offerings).choice.candidate
    assert choice.offering.zone == choice.offering.region
    assert "priced per region: set the stack's zone to a zone id before `pulumi up`" in choice.notes


def test_alibaba_component_names_the_missing_zone():
    import yaml

    from components.alicloud.validate import validate_args
    from components.contract import ClusterConfig

    stack = DATA_DIR.parents[2] / "stacks" / "Pulumi.training-a100-alicloud.yaml"
    cluster = yaml.safe_load(stack.read_text())["config"]["trainstack:cluster"]
    config = ClusterConfig(**{**cluster, "zone": "cn-beijing"})
    with pytest.raises(ValueError, match=r"^zone: the price catalog lists Alibaba prices per region"):
        validate_args(config, "c")
