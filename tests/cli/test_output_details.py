"""Output details: narrow terminals never cut figures or names, notes once, spot marked on
every cloud, values cut between items, big trees summarized, percentages only against a
priced row, region keys of another cloud dropped, and an honest markdown title."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
import yaml
from rich.console import Console
from typer.testing import CliRunner

from profiles.spec import load_spec
from trainstack.cli.app import app
from trainstack.cli.resolve_view import print_resolution
from trainstack.plan.view import compact, is_spot, tree

ROOT = Path(__file__).resolve().parents[2]
WORKLOAD = ROOT / "profiles" / "workloads" / "training-a100.yaml"
# 2 nodes of any 8-GPU A100 / A100-80GB / H100 type on every cloud, 72 h, 4,800 GiB at 250.
ALL_CLOUDS = (ROOT / "tests" / "fixtures" / "workloads" / "wide.yaml").read_text()


def resolved(tmp_path, text=ALL_CLOUDS, top=5):
    from profiles.catalog.loader import load_catalog
    from profiles.resolver import resolve

    path = tmp_path / "w.yaml"
    path.write_text(text)
    spec = load_spec(path)
    return spec, resolve(spec, load_catalog().offerings, top=top)


def printed(spec, resolution, width: int) -> str:
    buffer = io.StringIO()
    print_resolution(Console(file=buffer, width=width, color_system=None), spec, resolution, "v1")
    return buffer.getvalue()


@pytest.mark.parametrize("width", [60, 80, 100, 120, 160])
def test_prices_types_and_regions_are_never_cut(tmp_path, width):
    spec, resolution = resolved(tmp_path, top=8)
    text = printed(spec, resolution, width)
    assert max(len(line) for line in text.splitlines()) <= width
    flat = " ".join(text.split())
    for ranked in (resolution.choice, *resolution.alternatives):
        c, o = ranked.candidate, ranked.candidate.offering
        for whole in (o.instance_type, o.region, o.zone, f"{c.total_usd_per_hour:,.2f}", f"{c.usd_total:,.2f}"):
            assert re.search(rf"(^|[\s/│(]){re.escape(whole)}($|[\s/│,)])", flat), (whole, width)
    assert "…" not in text


def test_long_reasons_move_below_the_table_rather_than_wrap_a_word_per_line(tmp_path):
    spec, resolution = resolved(tmp_path)
    from trainstack.cli.resolve_view import _cells, table_width

    rows = [resolution.choice, *resolution.alternatives]
    cells = [_cells(rank, r) for rank, r in enumerate(rows, start=1)]
    width = table_width(cells, why=False) + 5  # the figures fit, a readable why column does not
    text = printed(spec, resolution, width)
    assert "┃ why" not in text and "\n1. cheapest job of" in text  # below the table, numbered by rank


@pytest.mark.parametrize("width", [80, 200])
def test_each_note_is_printed_once_and_rows_point_at_it(tmp_path, width):
    spec, resolution = resolved(tmp_path, top=8)
    text = " ".join(printed(spec, resolution, width).split())
    rows = (resolution.choice, *resolution.alternatives)
    notes = list(dict.fromkeys(n for r in rows for n in r.candidate.notes))
    assert any(sum(n in r.candidate.notes for r in rows) > 1 for n in notes), "a note shared by several rows"
    for number, note in enumerate(notes, start=1):
        assert text.count(" ".join(note.split())) == 1
        assert f"[{number}] {' '.join(note.split())}" in text


def test_the_cli_fits_an_80_column_terminal(tmp_path, monkeypatch):
    """A terminal with COLUMNS=80: rich sizes the console from it, and nothing is cut."""
    import trainstack.cli.render as render_module

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(render_module, "console", lambda: Console(force_terminal=True, color_system=None))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["resolve", str(WORKLOAD), "--top", "3"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "p4d.24xlarge" in result.stdout and "…" not in result.stdout


def test_no_percentage_against_a_zero_dollar_row(tmp_path):
    """Prepaid capacity (a reservation at $0/hour) ranks first; the next row gives dollars only."""
    held = (
        "name: held\naccelerators: [A100:8]\nnodes: 2\ninterconnect: rdma\nhours: 72h\nproviders: [aws]\n"
        "reservations: [{provider: aws, instance_type: p4d.24xlarge, zone: use1-az6, nodes: 2, usd_per_hour: 0, "
        "id: cr-0123}]\n"
    )
    _, resolution = resolved(tmp_path, held)
    assert resolution.choice.candidate.usd_total == 0
    second = resolution.alternatives[0].reason
    assert second.startswith("+$") and "%" not in second.split(" vs the row above")[0]


@pytest.mark.parametrize(
    ("inputs", "spot"),
    [
        pytest.param({"instanceMarketOptions": {"marketType": "spot"}}, True, id="aws"),
        pytest.param({"virtualMachineProfile": {"priority": "Spot"}}, True, id="azure"),
        pytest.param({"scheduling": {"provisioningModel": "SPOT", "preemptible": True}}, True, id="gcp"),
        pytest.param({"schedulingConfig": {"spot": True}}, True, id="gcp-tpu"),
        pytest.param({"spotStrategy": "SpotAsPriceGo"}, True, id="alicloud-volcengine"),
        pytest.param({"chargingMode": "spot"}, True, id="huaweicloud"),
        pytest.param({"instanceChargeType": "SPOTPAID"}, True, id="tencentcloud"),
        pytest.param(
            {"mixedInstancesPolicy": {"instancesDistribution": {"onDemandPercentageAboveBaseCapacity": 0}}},
            True,
            id="aws-node-group",
        ),
        pytest.param(
            {"mixedInstancesPolicy": {"instancesDistribution": {"onDemandPercentageAboveBaseCapacity": 100}}},
            False,
            id="aws-node-group-on-demand",
        ),
        pytest.param({"scheduling": {"provisioningModel": "STANDARD"}}, False, id="gcp-on-demand"),
        pytest.param({"virtualMachineProfile": {"priority": "Regular"}}, False, id="azure-regular"),
    ],
)
def test_spot_is_recognised_on_every_cloud(inputs, spot):
    assert is_spot(inputs) is spot


@pytest.mark.parametrize("stack", ["training-h100-azure", "training-a3-gcp"])
def test_plan_tree_marks_spot_nodes_on_azure_and_gcp(tmp_path, stack):
    from trainstack.plan.runner import run_plan

    shutil.copy(ROOT / "__main__.py", tmp_path)
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir()
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())
    document["config"]["trainstack:cluster"]["purchase"] = "spot"
    (tmp_path / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump(document))
    plan = run_plan(stack, tmp_path, priced=False)
    buffer = io.StringIO()
    Console(file=buffer, width=300, color_system=None).print(tree(stack, plan.resources))
    assert "(spot)" in buffer.getvalue()


def test_values_are_cut_between_items_not_mid_word():
    value = {
        "marketType": "spot",
        "spotOptions": {"instanceInterruptionBehavior": "terminate", "spotInstanceType": "one-time"},
    }
    text = compact(value, limit=40)
    assert text.startswith("marketType=spot") and text.endswith("more")
    assert "instanceInterrupt," not in text and not re.search(r"[A-Za-z]\.\.\.$", text)
    assert compact(value, limit=500) == (
        "marketType=spot, spotOptions.instanceInterruptionBehavior=terminate, spotOptions.spotInstanceType=one-time"
    )


def printed_tree(nodes: int) -> str:
    """The plan tree of a cluster component with `nodes` instances, as a 200-column console prints it."""
    resources = [{"type": "t:Cluster", "name": "c", "parent": None, "protect": False, "inputs": {}}]
    resources += [
        {"type": "aws:ec2/instance:Instance", "name": f"c-node-{i}", "parent": "c", "protect": False, "inputs": {}}
        for i in range(nodes)
    ]
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(tree("c", resources))
    return buffer.getvalue()


def test_a_big_tree_is_summarized_per_type():
    printed = printed_tree(5000)
    assert len(printed.splitlines()) < 10
    assert "... and 4997 more aws:ec2/instance:Instance (c-node-3 .. c-node-4999)" in printed


def test_small_trees_are_shown_whole():
    printed = printed_tree(8)
    assert "c-node-7" in printed and "more" not in printed


def test_force_onto_another_cloud_drops_the_old_region_key():
    from clouds.contract import ClusterConfig
    from profiles.stack.writer import render_stack
    from tests.clusters import BASE_CLUSTER

    gcp = ClusterConfig(
        **{
            **BASE_CLUSTER,
            "provider": "gcp",
            "region": "us-east4",
            "zone": "us-east4-a",
            "instance_type": "a3-highgpu-8g",
            "accelerator": "H100",
        }
    )
    kept = {"config": {"aws:region": "us-east-1", "trainstack:max_usd_per_hour": 50, "gcp:project": "p"}}
    config = yaml.safe_load(render_stack(gcp, "w.yaml", "2026-01-01", kept=kept))["config"]
    assert "aws:region" not in config and config["gcp:region"] == "us-east4"
    assert config["trainstack:max_usd_per_hour"] == 50 and config["gcp:project"] == "p"


@pytest.mark.parametrize(
    ("storage", "hours", "said"),
    [
        pytest.param(100.26, 72.0, "; priced: file system $1.3925/hour, $100.26 for the run (72 h)", id="huawei-sfs"),
        pytest.param(None, 72.0, "", id="no-file-system"),
        pytest.param(100.26, None, "", id="no-hours"),
    ],
)
def test_an_unpriced_plan_still_gives_the_parts_that_are_priced(storage, hours, said):
    """A Huawei or Volcengine stack's compute is not in the catalog, but its file system is priced
    (`usd_storage` in the JSON); the tree's cost line said only "price unknown"."""
    from types import SimpleNamespace

    from trainstack.cli.render import priced_parts

    assert priced_parts(SimpleNamespace(usd_storage=storage, hours=hours)) == said
