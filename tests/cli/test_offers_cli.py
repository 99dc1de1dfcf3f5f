"""`trainstack offers`: the committed catalog's cheapest offerings without a workload file."""

import json

import pytest

from profiles.catalog.loader import load_catalog
from tests.cli.helpers import one_error_line, run


def test_json_rows_match_the_catalog_cheapest_first():
    result = run("offers", "H100:8", "--provider", "aws", "--json", "--top", "0")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = [
        o for o in load_catalog(providers=("aws",)).offerings if o.accelerator == "H100" and o.accelerator_count == 8
    ]
    regions = {(o.region, o.instance_type) for o in rows}
    assert data["matched"] == len(data["offers"]) == len(regions)
    first = data["offers"][0]
    zone_rows = [o for o in rows if (o.region, o.instance_type) == (first["region"], first["instance_type"])]
    assert first["zones"] == sorted(o.zone for o in zone_rows)
    assert first["on_demand_usd_per_hour"] == pytest.approx(min(o.on_demand_usd_per_hour for o in zone_rows))
    prices = [o["on_demand_usd_per_hour"] for o in data["offers"]]
    assert prices == sorted(prices) and prices[0] == pytest.approx(min(o.on_demand_usd_per_hour for o in rows))
    assert data["warnings"] and "aws prices" in data["warnings"][0]  # the undated snapshot, as resolve warns


def test_spot_for_two_nodes_doubles_the_node_price_and_ranks_by_spot():
    one = json.loads(run("offers", "H100:8", "--provider", "aws", "--spot", "--json").stdout)["offers"]
    two = json.loads(run("offers", "H100:8", "--provider", "aws", "--spot", "--nodes", "2", "--json").stdout)["offers"]
    assert [o["spot_usd_per_hour"] * 2 for o in one] == pytest.approx([o["spot_usd_per_hour"] for o in two])
    spot = [o["spot_usd_per_hour"] for o in two]
    assert spot == sorted(spot) and None not in spot


def test_the_gcp_h100_rows_the_price_check_doubts_say_so_in_the_json_and_the_table():
    # us-central1's a3-highgpu-8g at $43.07/h against $87.83-98.93/h in us-east4 and us-east5:
    # the check `resolve` notes on the row (issue #27) is on the offer too, and in the table as `!`.
    data = json.loads(run("offers", "H100:8", "--provider", "gcp", "--region", "us-central1", "--json").stdout)
    row = next(o for o in data["offers"] if o["instance_type"] == "a3-highgpu-8g")
    assert row["on_demand_usd_per_hour"] == pytest.approx(43.07, abs=0.01)
    (check,) = row["price_checks"]
    assert "$43.07/h in us-central1" in check and "us-east4, us-east5" in check
    table = run("offers", "H100:8", "--provider", "gcp", "--region", "us-central1").stdout
    assert "a3-highgpu-8g !" in table and "price checks doubt this row's on-demand price" in table
    aws = json.loads(run("offers", "H100:8", "--provider", "aws", "--json", "--top", "0").stdout)["offers"]
    assert all(o["price_checks"] == [] for o in aws)  # AWS's H100 rows agree across regions


def test_table_names_the_pick_and_the_region_filter_holds():
    result = run("offers", "A100:8", "--region", "us-east-1", "--top", "3")
    assert result.exit_code == 0, result.output
    assert "p4d.24xlarge" in result.stdout and "us-east-1" in result.stdout and "us-west-2" not in result.stdout


@pytest.mark.parametrize(
    ("args", "text"),
    [
        pytest.param(["H100:x"], "cannot read 'H100:x'", id="bad-token"),
        pytest.param(["B100:8"], "the catalog has no 'B100'", id="unknown-accelerator"),
        pytest.param(["H100:8", "--provider", "awz"], "--provider 'awz' is not a cloud", id="unknown-cloud"),
        pytest.param(["H100:8", "--region", "us-east-9"], "--region us-east-9", id="unknown-region"),
        # the counts it comes in, as `sky gpus list` shows its quantities
        pytest.param(
            ["H100:3"], "lists no offering of it; H100 comes 1, 2, 4 or 8 per node: try H100:4", id="no-such-count"
        ),
        pytest.param(["A100-40GB:8"], "did you mean A100? (40 GiB per accelerator)", id="memory-suffix"),
        pytest.param(["TPU"], "did you mean tpu-v2, tpu-v3, tpu-v4, tpu-v5litepod, tpu-v5p, tpu-v6e?", id="tpu-family"),
        # a cloud that does not sell it, or has no prices at all, is named as such
        pytest.param(
            ["H100:8", "--provider", "alicloud"],
            "ACCELERATOR: alicloud lists no H100; aws, azure, gcp do: drop --provider or add --provider aws",
            id="not-on-this-cloud",
        ),
        pytest.param(
            ["H100:8", "--provider", "volcengine"],
            "--provider volcengine: the catalog has no priced offerings for it; fetch prices with "
            "`trainstack catalog refresh --provider volcengine`",
            id="cloud-without-prices",
        ),
        pytest.param(["H100:8", "--nodes", "0"], "--nodes", id="zero-nodes"),
    ],
)
def test_bad_input_is_one_line(args, text):
    one_error_line(run("offers", *args), text)


def test_offers_imports_no_pulumi_or_cloud_sdk():
    from tests.fresh_process import loaded_after

    loaded = loaded_after(
        "import contextlib, io\nfrom trainstack.entry import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main(['offers', 'H100:8', '--json'])"
    )
    assert not {
        m for m in loaded if m.startswith(("pulumi", "boto", "azure", "google", "tencentcloud", "alibabacloud"))
    }


def test_a_cloud_without_prices_beside_one_with_them_is_a_warning():
    data = json.loads(run("offers", "H100:8", "--provider", "volcengine", "--provider", "aws", "--json").stdout)
    assert {o["provider"] for o in data["offers"]} == {"aws"}
    assert data["warnings"][0] == (
        "warning: volcengine: the catalog has no priced offerings for it; fetch prices with "
        "`trainstack catalog refresh --provider volcengine`"
    )


def test_regions_in_any_case_and_the_prices_age_in_days():
    # `regions` in a workload take any case; so does --region. Alibaba's cn-beijing A10 rows
    # carry a dated third-party price (2024-12-30): its age in days is in the JSON as in the table.
    from profiles.catalog.freshness import observed_on

    data = json.loads(run("offers", "A10", "--region", "CN-Beijing", "--provider", "alicloud", "--json").stdout)
    assert data["offers"] and {o["region"] for o in data["offers"]} == {"cn-beijing"}
    today = load_catalog(providers=("alicloud",)).today
    for offer in data["offers"]:
        assert offer["price_age_days"] == (today - observed_on(offer["price_observed"])).days > 700
    aws = json.loads(run("offers", "H100:8", "--provider", "aws", "--top", "1", "--json").stdout)["offers"][0]
    assert aws["price_observed"].startswith("unknown") and aws["price_age_days"] is None  # undated snapshot


def test_hardware_only_a_platform_sells_is_offered_under_that_platform():
    # ModelArts' Ascend pools have no VM row: `resolve` prices them under `platform: modelarts`
    # (155.98 CNY/h, a third-party estimate), so `offers` lists them too, named as resolve names them.
    data = json.loads(run("offers", "Ascend 910B:8", "--provider", "huaweicloud", "--json").stdout)
    (row,) = data["offers"]
    assert (row["provider"], row["platform"], row["instance_type"]) == (
        "huaweicloud",
        "modelarts",
        "modelarts.bm.npu.arm.8snt9b2.d",
    )
    assert row["price_estimate"] is True and row["on_demand_usd_per_hour"] == pytest.approx(155.98 / 6.8012, abs=1e-3)
    table = run("offers", "Ascend 910B").stdout
    assert "huaweicloud/modelarts" in table and "1 offering (" in table
    aws = json.loads(run("offers", "H100:8", "--provider", "aws", "--json", "--top", "0").stdout)["offers"]
    assert {o["platform"] for o in aws} == {"vm"}  # SageMaker's rows are the VM rows' x1.15: not repeated


def test_an_80_column_terminal_gets_every_figure_whole(monkeypatch):
    from rich.console import Console

    import trainstack.cli.render as render_module

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(render_module, "console", lambda: Console(force_terminal=True, color_system=None))
    result = run("offers", "H100:8", "--provider", "aws", "--top", "2")
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 80 and "…" not in result.stdout
    assert "1. aws p5.48xlarge 8 H100" in result.stdout and "on-demand 55.04, spot 17.63-25.75" in result.stdout


def test_catalog_info_lists_the_platform_only_rows_offers_shows():
    # `offers` lists the hardware only a managed platform sells; `catalog info` names it too
    # (it counted the catalog files' rows only, so Ascend 910B appeared nowhere)
    info = json.loads(run("catalog", "info", "--json").stdout)
    listed = {(r["provider"], r["platform"], r["accelerator"]) for r in info["platform_rows"]}
    assert ("huaweicloud", "modelarts", "Ascend 910B") in listed and ("alicloud", "pai-lingjun", "A100-80GB") in listed
    for provider, platform, accelerator in listed:
        offers = json.loads(run("offers", accelerator, "--provider", provider, "--json", "--top", "0").stdout)["offers"]
        assert any(o["platform"] == platform for o in offers)
    assert "Ascend 910B in cn-north-4" in run("catalog", "info").stdout
