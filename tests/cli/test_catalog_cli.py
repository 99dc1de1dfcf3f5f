"""`trainstack catalog set-rate` and `catalog info` on a copy of the committed catalog."""

import datetime as dt
import json
import shutil

import pytest

import profiles.catalog.loader as loader
from profiles.catalog.rates import versioned
from tests.cli.helpers import run

AS_OF = (dt.date.today() - dt.timedelta(days=2)).isoformat()
BASE_VERSION = json.loads((loader.DATA_DIR / "catalog.json").read_text())["version"].split("+")[0]


def set_rate(currency, rate, as_of=AS_OF):
    return run("catalog", "set-rate", currency, rate, "--as-of", as_of, "--source", "CFETS central parity")


def meta(data):
    return json.loads((data / "catalog.json").read_text())


@pytest.mark.parametrize(
    ("currency", "rate", "message"),
    [
        pytest.param("CNY", "inf", "error: rate: inf is not a finite number; give units of CNY per 1 USD", id="inf"),
        pytest.param("CNY", "nan", "error: rate: nan is not a finite number", id="nan"),
        pytest.param("CNY", "1e9", "error: rate: 1e+09 CNY per USD is not plausible", id="absurdly-large"),
        pytest.param("CNY", "0.00001", "error: rate: 1e-05 CNY per USD is not plausible", id="absurdly-small"),
        pytest.param(
            "XYZ",
            "7",
            "error: currency: no catalog offerings are listed in XYZ; currencies in the catalog: CNY\n",
            id="unlisted-currency",
        ),
        pytest.param(
            "EUR",
            "0.9",
            "error: currency: no catalog offerings are listed in EUR; currencies in the catalog: CNY\n",
            id="real-but-unlisted",
        ),
    ],
)
def test_bad_rates_are_refused_and_nothing_is_written(data, currency, rate, message):
    before = (data / "catalog.json").read_bytes()
    result = set_rate(currency, rate)
    assert result.exit_code == 2 and result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert (data / "catalog.json").read_bytes() == before


def test_recording_a_rate_changes_the_version_and_replaces_an_earlier_one(data):
    assert set_rate("CNY", "7.0").exit_code == 0
    assert meta(data)["version"] == f"{BASE_VERSION}+CNY7@{AS_OF}"
    assert loader.load_catalog(data).version == f"{BASE_VERSION}+CNY7@{AS_OF}"
    assert set_rate("CNY", "7.12").exit_code == 0
    assert meta(data)["version"] == f"{BASE_VERSION}+CNY7.12@{AS_OF}"
    assert meta(data)["exchange_rates"]["CNY"]["per_usd"] == 7.12


def test_versioned_keeps_other_currencies():
    version = versioned("base+JPY150@2026-11-01+CNY7@2026-11-01", "CNY", {"per_usd": 7.12, "as_of": "2026-11-27"})
    assert version == "base+CNY7.12@2026-11-27+JPY150@2026-11-01"


def test_info_shows_left_out_offerings_sources_and_no_rate(data):
    result = run("catalog", "info")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert (
        "left out: 170 offerings listed in CNY: no USD/CNY rate is recorded; "  # 68 Alibaba + 102 Tencent rows
        "record one with `trainstack catalog refresh-rate CNY` or `trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT`"
    ) in lines
    assert f"sources of catalog {BASE_VERSION} (built 2026-12-01):" in lines
    assert (
        "  aws: github.com/skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv@00148f2af367 "
        "(prices undated, extracted on 2026-12-01); 1995 offerings"
    ) in lines
    assert (
        "  azure: github.com/skypilot-org/skypilot-catalog catalogs/v6/azure/vms.csv@098741e70562 "
        "(prices undated, extracted on 2026-11-29); 183 offerings"
    ) in lines
    assert (
        "  alicloud: github.com/jxs1211/karpenter-provider-alicloud (fork of cloudpilot-ai/karpenter-provider-alicloud) "
        "ArthurChiao/arthurchiao.github.io _posts/2023-06-17-gpu-prices.md@f234afc (prices 2023-07-21), "
        "pkg/providers/pricing/initial-on-demand-prices.json@5d2e077 (prices 2024-12-30); 68 offerings in CNY, "
        "third-party"
    ) in lines
    after = lines[lines.index("exchange rates: none recorded") + 1 :]
    checks = next(
        i
        for i, line in enumerate(after)
        if line.endswith("price checks (sibling prices that disagree; shown on the rows `resolve` picks):")
    )
    assert any(
        line.startswith("  gcp: price check: a3-highgpu-8g (8 x H100) $43.07/h in us-central1")
        for line in after[checks:]
    )
    after = after[:checks]
    # One warning per cloud with rows loaded (the CNY clouds' rows are left out: no rate).
    assert [line.split(" prices are ")[0] for line in after] == ["warning: aws", "warning: azure", "warning: gcp"]
    assert after[2] == (
        "warning: gcp prices are of unknown date (2377 of 2377 rows; source snapshot undated, "
        "extracted on 2026-12-01), older than 90 days or of unknown age; refresh with "
        "`trainstack catalog refresh --provider gcp`"
    )


def test_info_after_a_rate_shows_it_and_leaves_nothing_out(data):
    assert set_rate("CNY", "7.12").exit_code == 0
    result = run("catalog", "info")
    assert result.exit_code == 0, result.output
    assert "left out:" not in result.stdout and "alicloud" in result.stdout.split("sources of catalog")[0]
    assert f"sources of catalog {BASE_VERSION}+CNY7.12@{AS_OF} (built 2026-12-01):" in result.stdout
    lines = result.stdout.splitlines()
    assert f"exchange rates: 1 USD = 7.12 CNY as of {AS_OF} (CFETS central parity)" in lines
    assert not [line for line in lines if line.startswith("warning: CNY")]  # a 2-day-old rate: no warning
    assert [line.split(" prices are ")[0] for line in lines if line.startswith("warning: ")] == [
        "warning: alicloud",
        "warning: aws",
        "warning: azure",
        "warning: gcp",
        "warning: tencentcloud",
    ]


def hand_edit(data, rates):
    path = data / "catalog.json"
    path.write_text(json.dumps({**meta(data), "exchange_rates": rates}))


@pytest.mark.parametrize(
    ("rates", "last_line"),
    [
        pytest.param(
            {"CNY": {"per_usd": -7, "as_of": AS_OF, "source": "hand"}},
            "exchange rates: USD/CNY not used: the recorded rate is not a valid number (per_usd: -7)",
            id="negative",
        ),
        pytest.param(
            {"CNY": {"per_usd": 0, "as_of": AS_OF, "source": "hand"}},
            "exchange rates: USD/CNY not used: the recorded rate is not a valid number (per_usd: 0)",
            id="zero",
        ),
        pytest.param(
            {"CNY": 7.1},
            "exchange rates: USD/CNY not used: the recorded rate is not an entry with per_usd, as_of and source (7.1)",
            id="bare-number",
        ),
        pytest.param([], "exchange rates: none recorded", id="list"),
        pytest.param("x", "exchange rates: none recorded", id="text"),
    ],
)
def test_info_lists_only_usable_rates_and_says_why_others_are_not_used(data, rates, last_line):
    hand_edit(data, rates)
    result = run("catalog", "info")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("exchange rates:")] == [last_line]
    assert "1 USD = " not in result.stdout
    (left_out,) = [line for line in lines if line.startswith("left out:")]
    why = last_line.removeprefix("exchange rates: USD/CNY not used: the recorded rate ")
    expected = f"the recorded USD/CNY rate {why}" if "not used" in last_line else "no USD/CNY rate is recorded"
    assert left_out.startswith(f"left out: 170 offerings listed in CNY: {expected}; record one with ")


def test_set_rate_replaces_a_broken_map_and_says_what_it_replaced(data):
    hand_edit(data, "x")
    result = set_rate("CNY", "7.12")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"recorded 1 USD = 7.12 CNY as of {AS_OF} (CFETS central parity)\n"
        'replaced exchange_rates "x", which is not a map of currencies\n'
    )
    assert meta(data)["exchange_rates"] == {"CNY": {"per_usd": 7.12, "as_of": AS_OF, "source": "CFETS central parity"}}


def test_set_rate_with_an_older_date_is_refused_unless_forced_and_says_what_it_replaced(data):
    newer, older = AS_OF, (dt.date.today() - dt.timedelta(days=20)).isoformat()
    assert set_rate("CNY", "7.12", newer).stdout == f"recorded 1 USD = 7.12 CNY as of {newer} (CFETS central parity)\n"
    before = (data / "catalog.json").read_bytes()
    refused = set_rate("CNY", "7.3", older)
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr == (
        f"error: --as-of: {older} is older than the recorded rate (1 USD = 7.12 CNY as of {newer} "
        "(CFETS central parity)); keep that one, or pass --force to replace it\n"
    )
    assert (data / "catalog.json").read_bytes() == before
    forced = run("catalog", "set-rate", "CNY", "7.3", "--as-of", older, "--source", "bank note", "--force")
    assert forced.exit_code == 0, forced.output
    assert forced.stdout == (
        f"recorded 1 USD = 7.3 CNY as of {older} (bank note)\n"
        f"replaced 1 USD = 7.12 CNY as of {newer} (CFETS central parity)\n"
    )
    assert meta(data)["version"] == f"{BASE_VERSION}+CNY7.3@{older}"


def test_set_rate_future_date_says_future_and_accepts_one_day_ahead(data):
    today = dt.date.today()
    ahead, too_far = (today + dt.timedelta(days=1)).isoformat(), (today + dt.timedelta(days=2)).isoformat()
    refused = set_rate("CNY", "7.12", too_far)
    assert refused.exit_code == 2 and refused.stderr == (
        f"error: --as-of: {too_far} is in the future (today is {today.isoformat()}; a rate may be dated at most 1 day "
        "ahead); give the date the rate applies to\n"
    )
    accepted = set_rate("CNY", "7.12", ahead)
    assert accepted.exit_code == 0 and meta(data)["exchange_rates"]["CNY"]["as_of"] == ahead


def test_set_rate_accepts_a_lowercase_currency_and_a_data_dir(data, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(data, other)
    before = (data / "catalog.json").read_bytes()
    result = run("catalog", "set-rate", "cny", "7.12", "--as-of", AS_OF, "--source", "CFETS", "--data-dir", str(other))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"recorded 1 USD = 7.12 CNY as of {AS_OF} (CFETS)\n"
    assert json.loads((other / "catalog.json").read_text())["exchange_rates"] == {
        "CNY": {"per_usd": 7.12, "as_of": AS_OF, "source": "CFETS"}
    }
    assert (data / "catalog.json").read_bytes() == before
    missing = run(
        "catalog", "set-rate", "CNY", "7.12", "--as-of", AS_OF, "--source", "x", "--data-dir", str(tmp_path / "nowhere")
    )
    assert missing.exit_code == 2 and missing.stderr == (
        f"error: --data-dir: {tmp_path / 'nowhere'} holds no catalog.json; give the catalog folder "
        "(default profiles/catalog/data)\n"
    )
    assert "lowercase" in run("catalog", "set-rate", "--help").stdout


def test_set_rate_keeps_the_catalog_file_mode(data):
    import os
    import stat

    path = data / "catalog.json"
    os.chmod(path, 0o644)
    old_umask = os.umask(0o077)
    try:
        assert set_rate("CNY", "7.12").exit_code == 0
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644  # was 0o600 through mkstemp


def test_info_json_has_the_same_facts_as_the_table(data):
    import csv

    result = run("catalog", "info", "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert list(info) == [
        "version",
        "built",
        "offerings",
        "providers",
        "left_out",
        "exchange_rates",
        "unusable_rates",
        "warnings",
        "price_checks",
        "platform_rows",
    ]
    assert (info["version"], info["built"]) == (BASE_VERSION, "2026-12-01")
    # PAI Lingjun's node is priced in USD; ModelArts' Ascend pool, in CNY, is left out without a rate
    assert [(r["platform"], r["accelerator"], r["price_estimate"]) for r in info["platform_rows"]] == [
        ("pai-lingjun", "A100-80GB", True)
    ]
    checks = {(c["region"], c["instance_type"], c["kind"]) for c in info["price_checks"]}
    assert ("us-central1", "a3-highgpu-8g", "region-spread") in checks  # $43.07 vs $87.83-98.93 in us-east4/5
    assert ("us-central1", "a2-ultragpu-8g", "memory-variant") in checks  # A100-80GB below A100 (40 GB)
    # Without a rate the CNY clouds' rows are left out, as the table says.
    assert sorted(info["providers"]) == ["aws", "azure", "gcp"]
    assert info["left_out"]["CNY"]["offerings"] == 170
    assert info["left_out"]["CNY"]["reason"].startswith("no USD/CNY rate is recorded; record one with")
    assert info["exchange_rates"] == {} and info["unusable_rates"] == {}
    rows = list(csv.DictReader((data / "aws.csv").open()))
    a100 = [r for r in rows if r["accelerator"] == "A100"]
    aws = info["providers"]["aws"]
    assert aws["accelerators"]["A100"] == {"offerings": len(a100), "regions": len({r["region"] for r in a100})}
    assert aws["offerings"] == 1995 == sum(a["offerings"] for a in aws["accelerators"].values())
    assert info["offerings"] == sum(p["offerings"] for p in info["providers"].values())
    assert aws["prices_observed"] == {"oldest": None, "unknown_rows": 1995, "stale": True}
    assert aws["source"] == {
        "repository": "github.com/skypilot-org/skypilot-catalog",
        "files": [
            {
                "path": "catalogs/v8/aws/vms.csv",
                "commit": "00148f2af3672e2229b4f7bf8157d5a3f36e3c35",
                "prices_date": "unknown",
                "extracted": "2026-12-01",
            }
        ],
        "currency": "USD",
        "third_party": False,
        "refreshed": None,
    }
    text = run("catalog", "info").stdout.splitlines()
    assert info["warnings"] == [line for line in text if line.startswith("warning: ")]


def test_info_json_after_a_rate_lists_it(data):
    assert set_rate("CNY", "7.12").exit_code == 0
    info = json.loads(run("catalog", "info", "--json").stdout)
    assert info["exchange_rates"]["CNY"]["per_usd"] == 7.12 and info["exchange_rates"]["CNY"]["as_of"] == AS_OF
    assert info["left_out"] == {} and info["providers"]["alicloud"]["source"]["currency"] == "CNY"
    assert info["providers"]["alicloud"]["prices_observed"]["oldest"] == "2023-07-21"
