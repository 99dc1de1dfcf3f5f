"""Offerings listed in CNY: the Alibaba and Tencent rows, recorded exchange rates, jurisdiction."""

import datetime as dt
import json
import shutil

import pytest

from profiles.catalog.build import DATA_DIR, DEFAULT_SOURCE, build
from profiles.catalog.loader import load_catalog
from profiles.catalog.rates import RateError, set_rate
from profiles.catalog.sources.alicloud import build_alicloud
from profiles.resolver import NoMatchError, resolve
from profiles.spec import parse_spec
from tests.profiles.known_rows import GT4_41XLARGE948, hardware
from tests.profiles.workloads import TWO_NODES_72H

TODAY = dt.date(2026, 11, 29)
ALIBABA_ROWS = 68  # the snapshot's rows: 15 types x their regions (sources/data/alicloud_payg_cny.csv)
TENCENT_ROWS = 102  # 17 types x 6 mainland regions
# 2 on-demand nodes of 8 x A100-80GB on RDMA for 72 h
TWO_A100_80GB_NODES = {"accelerators": "A100-80GB:8", **TWO_NODES_72H, "purchase": "on-demand"}
BASE = json.loads((DATA_DIR / "catalog.json").read_text())["version"].split("+")[0]


@pytest.fixture()
def data(tmp_path):
    """A copy of the committed catalog with no exchange rate recorded (as before any rate)."""
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target, ignore=shutil.ignore_patterns("snapshots"))
    meta = json.loads((target / "catalog.json").read_text())
    del meta["exchange_rates"]
    meta["version"] = BASE
    (target / "catalog.json").write_text(json.dumps(meta))
    return target


def test_the_committed_catalog_prices_cny_rows_at_the_sourced_dated_rate_with_a_warning():
    catalog = load_catalog(today=dt.date(2026, 12, 1))
    assert catalog.rates == {
        "CNY": {
            "per_usd": 6.8012,
            "as_of": "2026-05-08",
            "source": "ECB euro reference rates, cross rate 7.9989/1.1761 (china-prices.md CP-R1)",
        }
    }
    assert catalog.left_out == {}
    gt4 = next(o for o in catalog.offerings if o.instance_type == "GT4.41XLARGE948" and o.region == "ap-beijing")
    assert gt4.on_demand_usd_per_hour == pytest.approx(34.921779, abs=1e-6)  # 237.51 CNY / 6.8012 = 34.9217785
    assert catalog.rate_warnings() == [
        "warning: CNY prices are converted at 1 USD = 6.8012 CNY as of 2026-05-08 (207 days old; ECB euro reference "
        "rates, cross rate 7.9989/1.1761); record a current rate with `trainstack catalog "
        "refresh-rate CNY` or `trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT` [source CP-R1]"
    ]
    assert catalog.price_warnings(("aws",)) == [
        "warning: aws prices are of unknown date (1995 of 1995 rows; source snapshot undated, extracted on "
        "2026-12-01), older than 90 days or of unknown age; refresh with `trainstack catalog refresh --provider aws`"
    ]
    lines = catalog.price_warnings(("alicloud",))
    assert lines[0] == (
        "warning: alicloud prices are observed as early as 2023-07-21 (1229 days ago), older than "
        "90 days or of unknown age; refresh with `trainstack catalog refresh --provider alicloud`"
    )
    assert lines[1].startswith("warning: CNY prices are converted at 1 USD = 6.8012 CNY as of 2026-05-08")


def test_alibaba_snapshot_rows_are_cny_estimates_with_their_sources_dates():
    rows = build_alicloud(None, "unused")
    assert len(rows) == ALIBABA_ROWS
    assert {o.currency for o in rows} == {"CNY"} and all(o.on_demand_usd_per_hour is None for o in rows)
    assert [o.region for o in rows if o.instance_type == "ecs.ebmgn7ex.32xlarge"] == ["cn-beijing", "cn-shenzhen"]
    rdma = next(o for o in rows if o.instance_type == "ecs.ebmgn7ex.32xlarge")
    assert (rdma.region, rdma.accelerator, rdma.accelerator_count, rdma.on_demand_native) == (
        "cn-beijing",
        "A100-80GB",
        8,
        270.8333,
    )
    assert rdma.rdma and rdma.catalog_date == "2024-12-30"
    assert rdma.price_note.startswith("estimate: third-party CNY list price seen 2024-12-30 (china-prices.md CP-A32)")
    (old,) = [o for o in rows if o.instance_type == "ecs.gn6v-c10g1.20xlarge"]  # only the 2023 blog lists it
    assert (old.region, old.on_demand_native, old.catalog_date) == ("cn-shanghai", 219.64, "2023-07-21")
    assert not [o for o in rows if o.instance_type == "ecs.ebmgn7e.32xlarge"]  # GPU model unsourced


def test_tencent_rows_are_its_undated_official_list_prices_upper_end_of_each_range():
    from profiles.catalog.sources.tencentcloud import build_tencentcloud

    rows = build_tencentcloud(None, "unused")
    assert len(rows) == TENCENT_ROWS
    by_type = {o.instance_type: o for o in rows if o.region == "ap-beijing"}
    gt4 = by_type["GT4.41XLARGE948"]
    assert hardware(gt4) == GT4_41XLARGE948 and gt4.on_demand_native == 237.51  # CP-T4
    assert by_type["GN10X.2XLARGE40"].on_demand_native == 18.04  # CP-T5 "16.21-18.04": the upper end
    assert by_type["GN7.20XLARGE320"].on_demand_native == 55.55  # CP-T17 "49.98-55.55"
    assert by_type["GT4.8XLARGE192"].vcpus is None  # no official spec for this size
    assert not [t for t in by_type if t.startswith("GN7.LARGE")]  # vGPU slices left out
    assert {o.catalog_date for o in rows} == {"unknown, extracted on 2026-12-01"}
    assert {o.spot_native for o in rows} == {None} and {o.zone == o.region for o in rows} == {True}
    assert gt4.price_note.startswith("estimate: Tencent's undated official list price for mainland China")


def test_without_a_rate_cny_rows_are_left_out(data):
    catalog = load_catalog(data)
    assert not [o for o in catalog.offerings if o.provider in ("alicloud", "tencentcloud")]
    assert catalog.left_out == {"CNY": ALIBABA_ROWS + TENCENT_ROWS}


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
    spec = parse_spec({**TWO_A100_80GB_NODES, "jurisdiction": "cn-mainland"})
    choice = resolve(spec, load_catalog(data, today=TODAY).offerings).choice.candidate
    assert (choice.offering.provider, choice.offering.instance_type) == ("alicloud", "ecs.ebmgn7ex.32xlarge")
    assert choice.usd_per_hour == pytest.approx(2 * 270.8333 / 7.0, abs=1e-5)
    assert "listed as 270.83 CNY/h per node" in choice.notes
    assert any(n.startswith("estimate: third-party CNY list price seen 2024-12-30") for n in choice.notes)


@pytest.mark.parametrize(
    ("today", "warned"),
    [(TODAY, False), (dt.date(2026, 12, 28), False), (dt.date(2026, 12, 29), True), (dt.date(2028, 1, 1), True)],
)
def test_an_old_rate_is_still_used_like_a_price_and_warned_about_after_31_days(data, today, warned):
    set_rate(data, "CNY", 7.0, "2026-11-27", "test rate", today=TODAY)
    catalog = load_catalog(data, providers=("alicloud",), today=today)
    assert len(catalog.offerings) == ALIBABA_ROWS and catalog.left_out == {} and catalog.stale_rates == {}
    age = (today - dt.date(2026, 11, 27)).days
    assert catalog.rate_warnings() == (
        [
            f"warning: CNY prices are converted at 1 USD = 7 CNY as of 2026-11-27 ({age} days old; test rate); record a "
            "current rate with `trainstack catalog refresh-rate CNY` or `trainstack catalog set-rate CNY RATE --as-of "
            "YYYY-MM-DD --source TEXT`"
        ]
        if warned
        else []
    )


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
        (
            ("CNY", 7.1, "2026-12-05", "x"),
            r"--as-of: 2026-12-05 is in the future \(today is 2026-11-29; a rate may be dated at most 1 day ahead\)",
        ),
        (("CNY", 7.1, "2026-11-27", "  "), "--source: say where the rate comes from"),
    ],
)
def test_bad_rates_are_refused_and_nothing_is_written(data, args, message):
    before = (data / "catalog.json").read_bytes()
    with pytest.raises(RateError, match=message):
        set_rate(data, *args, today=TODAY)
    assert (data / "catalog.json").read_bytes() == before
    assert "exchange_rates" not in json.loads(before)


def test_set_rate_records_an_old_dated_rate_which_is_then_used_with_a_warning(data):
    entry = set_rate(data, "CNY", 6.8012, "2026-05-08", "ECB cross rate", today=TODAY)
    assert entry == {"per_usd": 6.8012, "as_of": "2026-05-08", "source": "ECB cross rate"}
    catalog = load_catalog(data, providers=("alicloud",), today=TODAY)
    assert len(catalog.offerings) == ALIBABA_ROWS
    assert catalog.rate_warnings()[0].startswith(
        "warning: CNY prices are converted at 1 USD = 6.8012 CNY as of 2026-05-08 (205 days old; ECB cross rate)"
    )


def test_alibaba_spot_pick_says_it_gets_no_deployment_set():

    row = next(o for o in build_alicloud(None, "x") if o.instance_type == "ecs.gn7i-c8g1.2xlarge")
    priced = row._replace(on_demand_usd_per_hour=1.3, spot_usd_per_hour=0.4)
    spec = parse_spec(
        {
            "accelerators": "A10:1",
            "hours": 5,
            "purchase": "any",
            "spot": {"checkpoint_interval": "1h"},
            "file_system": {"capacity": "1200GiB", "throughput": 100},
        }
    )
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
    assert (
        "priced per region: write the stack with `--write-stack NAME --zone ZONE` (a zone id of the region)"
        in choice.notes
    )


def test_alibaba_component_names_the_missing_zone():
    import yaml

    from clouds.alicloud.validate import validate_args
    from clouds.contract import ClusterConfig

    stack = DATA_DIR.parents[2] / "stacks" / "Pulumi.training-a100-alicloud.yaml"
    cluster = yaml.safe_load(stack.read_text())["config"]["trainstack:cluster"]
    config = ClusterConfig(**{**cluster, "zone": "cn-beijing"})
    with pytest.raises(ValueError, match=r"^zone: the price catalog lists Alibaba prices per region"):
        validate_args(config, "c")


FIX = "record one with `trainstack catalog refresh-rate CNY` or `trainstack catalog set-rate CNY RATE"


def write_rates(data, rates):
    """Hand-edit catalog.json's `exchange_rates` (what a user with an editor can do)."""
    meta_path = data / "catalog.json"
    meta = json.loads(meta_path.read_text())
    meta["exchange_rates"] = rates
    meta_path.write_text(json.dumps(meta))


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        pytest.param({"per_usd": -7}, "is not a valid number (per_usd: -7)", id="negative"),
        pytest.param({"per_usd": True}, "is not a valid number (per_usd: true)", id="bool"),
        pytest.param({"per_usd": 0}, "is not a valid number (per_usd: 0)", id="zero"),
        pytest.param({"per_usd": None}, "is not a valid number (per_usd: null)", id="null"),
        pytest.param({"per_usd": "abc"}, 'is not a valid number (per_usd: "abc")', id="text"),
        pytest.param({}, "is not a valid number (per_usd: missing)", id="missing"),
        pytest.param(
            {"per_usd": 1e-300},
            "is not plausible (per_usd: 1e-300; allowed 0.001 to 1,000,000 per USD)",
            id="absurdly-small",
        ),
        pytest.param(7.1, "is not an entry with per_usd, as_of and source (7.1)", id="bare-number"),
    ],
)
def test_a_hand_edited_bad_rate_is_not_used_and_says_why(data, entry, why):
    if isinstance(entry, dict):
        entry = {"as_of": "2026-11-27", "source": "hand edit", **entry}
    write_rates(data, {"CNY": entry})
    catalog = load_catalog(data, today=TODAY)
    assert catalog.rates == {} and catalog.left_out == {"CNY": ALIBABA_ROWS + TENCENT_ROWS}
    assert not [o for o in catalog.offerings if o.provider == "alicloud"]
    assert min(o.on_demand_usd_per_hour or o.spot_usd_per_hour for o in catalog.offerings) > 0
    assert catalog.unusable_rates == {"CNY": why} and catalog.stale_rates == {}
    assert catalog.left_out_reason("CNY") == f"the recorded USD/CNY rate {why}; {FIX} --as-of YYYY-MM-DD --source TEXT`"


def test_a_hand_edited_rate_is_not_used_for_resolve_either(data):
    write_rates(data, {"CNY": {"per_usd": -7, "as_of": "2026-11-27", "source": "hand edit"}})
    spec = parse_spec({**TWO_A100_80GB_NODES, "providers": "alicloud"})
    with pytest.raises(NoMatchError, match="^providers: the catalog has no priced offerings for alicloud; "):
        resolve(spec, load_catalog(data, today=TODAY).offerings)  # before: a pick at -38.69 USD/hour per node


@pytest.mark.parametrize(
    "rates", [pytest.param([], id="list"), pytest.param("x", id="text"), pytest.param(7.1, id="number")]
)
def test_exchange_rates_that_are_not_a_map_count_as_none_and_set_rate_replaces_them(data, rates):
    write_rates(data, rates)
    catalog = load_catalog(data, today=TODAY)
    assert (catalog.rates, catalog.unusable_rates, catalog.left_out) == ({}, {}, {"CNY": ALIBABA_ROWS + TENCENT_ROWS})
    assert catalog.left_out_reason("CNY").startswith(f"no USD/CNY rate is recorded; {FIX}")
    entry = set_rate(data, "CNY", 7.12, "2026-11-29", "test rate", today=TODAY)
    meta = json.loads((data / "catalog.json").read_text())
    assert (
        meta["exchange_rates"]
        == {"CNY": entry}
        == {"CNY": {"per_usd": 7.12, "as_of": "2026-11-29", "source": "test rate"}}
    )
    assert meta["version"] == f"{BASE}+CNY7.12@2026-11-29"
    assert len(load_catalog(data, today=TODAY).offerings) == len(catalog.offerings) + ALIBABA_ROWS + TENCENT_ROWS


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"per_usd": "abc", "as_of": "2026-11-29", "source": "x"}, id="text"),
        pytest.param(None, id="null"),
        pytest.param({"per_usd": 7.2, "as_of": "2027-06-01", "source": "x"}, id="far-future"),
    ],
)
def test_set_rate_replaces_a_broken_entry(data, entry):
    write_rates(data, {"CNY": entry, "JPY": {"per_usd": 150, "as_of": "2026-11-20", "source": "kept"}})
    set_rate(data, "CNY", 7.12, "2026-11-28", "test rate", today=TODAY)
    rates = json.loads((data / "catalog.json").read_text())["exchange_rates"]
    assert rates == {
        "CNY": {"per_usd": 7.12, "as_of": "2026-11-28", "source": "test rate"},
        "JPY": {"per_usd": 150, "as_of": "2026-11-20", "source": "kept"},
    }


@pytest.mark.parametrize(
    ("as_of", "used", "why"),
    [
        pytest.param("2026-11-30", True, None, id="one-day-ahead-beijing-time"),
        pytest.param(
            "2026-12-01", False, "is dated 2026-12-01, in the future (today is 2026-11-29)", id="two-days-ahead"
        ),
        pytest.param("soon", False, 'has no valid date (as_of: "soon"; write YYYY-MM-DD)', id="not-a-date"),
        pytest.param(None, False, "has no valid date (as_of: null; write YYYY-MM-DD)", id="null-date"),
    ],
)
def test_a_rate_may_be_dated_one_day_ahead_and_a_later_date_is_called_future(data, as_of, used, why):
    write_rates(data, {"CNY": {"per_usd": 7.0, "as_of": as_of, "source": "hand edit"}})
    catalog = load_catalog(data, providers=("alicloud",), today=TODAY)
    assert len(catalog.offerings) == (ALIBABA_ROWS if used else 0)
    assert catalog.unusable_rates == ({} if used else {"CNY": why})
    if not used:
        reason = catalog.left_out_reason("CNY")
        assert reason == f"the recorded USD/CNY rate {why}; {FIX} --as-of YYYY-MM-DD --source TEXT`"
        assert "days old" not in reason


def test_set_rate_accepts_a_date_one_day_ahead_of_local_today(data):
    entry = set_rate(data, "CNY", 7.12, "2026-11-30", "CFETS central parity", today=TODAY)
    assert entry == {"per_usd": 7.12, "as_of": "2026-11-30", "source": "CFETS central parity"}
    assert json.loads((data / "catalog.json").read_text())["version"] == f"{BASE}+CNY7.12@2026-11-30"
    with pytest.raises(RateError) as error:
        set_rate(data, "CNY", 7.12, "2026-12-01", "CFETS central parity", today=TODAY)
    assert str(error.value) == (
        "--as-of: 2026-12-01 is in the future (today is 2026-11-29; a rate may be dated at "
        "most 1 day ahead); give the date the rate applies to"
    )


def test_an_older_rate_does_not_replace_a_newer_one_unless_forced(data):
    set_rate(data, "CNY", 7.12, "2026-11-29", "CFETS central parity", today=TODAY)
    before = (data / "catalog.json").read_bytes()
    with pytest.raises(RateError) as error:
        set_rate(data, "CNY", 7.3, "2026-11-01", "old note", today=TODAY)
    assert str(error.value) == (
        "--as-of: 2026-11-01 is older than the recorded rate (1 USD = 7.12 CNY as of "
        "2026-11-29 (CFETS central parity)); keep that one, or pass --force to replace it"
    )
    assert (data / "catalog.json").read_bytes() == before
    set_rate(data, "CNY", 7.3, "2026-11-01", "old note", today=TODAY, force=True)
    meta = json.loads((data / "catalog.json").read_text())
    assert meta["exchange_rates"]["CNY"] == {"per_usd": 7.3, "as_of": "2026-11-01", "source": "old note"}
    assert meta["version"] == f"{BASE}+CNY7.3@2026-11-01"
    set_rate(data, "CNY", 7.25, "2026-11-01", "same day, corrected", today=TODAY)  # same date: no --force needed
    assert json.loads((data / "catalog.json").read_text())["exchange_rates"]["CNY"]["per_usd"] == 7.25


def test_set_rate_names_a_folder_without_a_catalog(tmp_path):
    with pytest.raises(RateError) as error:
        set_rate(tmp_path / "nowhere", "CNY", 7.12, "2026-11-29", "x", today=TODAY)
    assert str(error.value) == (
        f"--data-dir: {tmp_path / 'nowhere'} holds no catalog.json; give the catalog folder "
        "(default profiles/catalog/data)"
    )


def test_tencent_spot_is_never_picked_because_a_stack_cannot_carry_its_bid():
    from profiles.catalog.offering import Offering

    row = Offering(
        "tencentcloud",
        "ap-beijing",
        "ap-beijing-6",
        "GT4.41XLARGE948",
        "A100",
        8,
        40.0,
        "SXM",
        164.0,
        948.0,
        "ethernet",
        0,
        50.0,
        28.0,
        8.0,
        "2026-11-29",
        "tencentcloud-price-api",
    )
    spec = parse_spec(
        {
            "accelerators": "A100:8",
            "hours": 10,
            "purchase": "any",
            "interconnect": "none",
            "spot": {"checkpoint_interval": "1h"},
            "file_system": {"capacity": "1200GiB"},
        }
    )
    resolution = resolve(spec, [row])
    assert {c.candidate.purchase for c in [resolution.choice, *resolution.alternatives]} == {"on-demand"}
