"""A new user's first hour through the real CLI: errors that name the file and key, output
that stays stable and readable (#16, third pass)."""

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.shared_runs import afresh
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
WORKLOAD = (ROOT / "profiles" / "workloads" / "training-a100.yaml").read_text()


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """A project folder with the committed AWS stack, as the working directory."""
    for name in ("Pulumi.yaml", "__main__.py"):  # the program too: `plan` runs it
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100.yaml", tmp_path / "stacks")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize(
    ("reservation", "message"),
    [
        pytest.param(
            "instance_type: p9.mega, zone: use1-az4",
            "reservations.0.instance_type: 'p9.mega' is not an aws instance type the catalog knows",
            id="unknown-type",
        ),
        pytest.param(
            "instance_type: p4d.24xlarge, zone: use1-az99",
            "reservations.0.zone: 'use1-az99' is not an aws zone the catalog knows",
            id="unknown-zone",
        ),
    ],
)
def test_a_workload_reservation_error_names_the_file_and_key(project, reservation, message):
    path = project / "w.yaml"
    path.write_text(
        WORKLOAD + f"reservations:\n  - {{provider: aws, {reservation}, nodes: 2, usd_per_hour: 0, id: cr-1}}\n"
    )
    result = run("resolve", str(path))
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {path}: {message}"), result.stderr


def test_check_names_the_stack_file_a_refused_reservation_is_in(project):
    stack = project / "stacks" / "Pulumi.training-a100.yaml"
    text = stack.read_text().replace("    tags: {}\n", "    tags: {}\n    reservation: {id: cr-123}\n")
    stack.write_text(text)
    result = run("check", "-s", "training-a100")
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {stack}: reservation: a capacity reservation holds on-demand capacity, never spot; "
        "set purchase: on-demand or remove reservation\n"
    )


def test_bench_run_refuses_a_stack_plan_refuses_naming_its_file(project):
    stack = project / "stacks" / "Pulumi.training-a100.yaml"
    stack.write_text(stack.read_text().replace("    tags: {}\n", "    tags: {}\n    reservation: {id: cr-123}\n"))
    result = run("bench", "run", "-s", "training-a100")
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {stack}: reservation: a capacity reservation")
    assert not (project / "bench-kit").exists()


@pytest.mark.parametrize(("columns", "width"), [("100", 100), ("", 160), ("wide", 160)])
def test_a_piped_console_honours_columns_else_a_fixed_width(monkeypatch, columns, width):
    from trainstack.cli.render import console

    monkeypatch.setenv("COLUMNS", columns)
    assert console().width == width  # not a terminal under pytest


def test_a_piped_resolve_table_fits_columns(project, monkeypatch):
    monkeypatch.setenv("COLUMNS", "90")
    result = run("resolve", str(ROOT / "profiles" / "workloads" / "training-a100.yaml"), "--top", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 90 and "p4d.24xlarge" in result.stdout and "…" not in result.stdout


def test_resolve_top_lists_distinct_offerings_with_their_zones(project, tmp_path):
    """On-demand p4d.24xlarge costs the same in every zone of a region: one row per region."""
    workload = tmp_path / "od.yaml"
    workload.write_text(WORKLOAD.replace("purchase: any ", "purchase: on-demand "))
    result = run("resolve", str(workload), "--top", "5", "--json")
    rows = [json.loads(result.stdout)["choice"], *json.loads(result.stdout)["alternatives"]]
    offerings = [(r["region"], r["instance_type"], r["purchase"], r["usd_total"]) for r in rows]
    assert len(set(offerings)) == 5
    first = rows[0]
    assert (first["region"], first["zone"], first["also_zones"]) == ("us-east-2", "use2-az1", ["use2-az2", "use2-az3"])
    assert first["reason"].endswith("; also in use2-az2, use2-az3 at the same cost")


@pytest.mark.parametrize(
    ("stack", "cloud", "region"),
    [("training-a100", "aws", "eu-north-1"), ("training-a3-gcp", "gcp", "europe-north1")],
)
def test_plan_json_names_the_stack_and_cloud_rounds_to_cents_and_is_stable(stack, cloud, region, monkeypatch):
    import yaml

    monkeypatch.chdir(ROOT)
    first = run("plan", "-s", stack, "--json")  # the session's run of this stack, if one was made
    with afresh():
        second = run("plan", "-s", stack, "--json")  # a real run now
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout  # the same stack, the same text
    data = json.loads(first.stdout)
    cluster = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())["config"]["trainstack:cluster"]
    assert (data["stack"], data["provider"], data["region"], data["hours"]) == (
        stack,
        cloud,
        region,
        round(cluster["hours"], 4),
    )
    storage = data["usd_storage"] or 0.0  # None where the file system's price is unknown
    assert data["usd_total"] == pytest.approx(cluster["usd_per_hour"] * cluster["hours"] + storage, abs=0.011)
    assert round(data["usd_total"], 2) == data["usd_total"] and round(storage, 2) == storage


def _unpriced(project) -> None:
    """The committed AWS stack on p5.48xlarge in eun1-az1, which the catalog lists without a spot
    price, no price recorded."""
    stack = project / "stacks" / "Pulumi.training-a100.yaml"
    text = stack.read_text().replace("p4d.24xlarge", "p5.48xlarge").replace("accelerator: A100", "accelerator: H100")
    text = text.replace("zone: eun1-az3", "zone: eun1-az1")
    stack.write_text("\n".join(line for line in text.splitlines() if "usd_per_hour:" not in line) + "\n")


def test_an_unpriced_plan_says_price_unknown_once_with_why(project):
    _unpriced(project)
    result = run("plan", "-s", "training-a100")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert text.count("price unknown") == 1
    assert "cluster: price unknown (catalog " in text
    assert "lists p5.48xlarge in eun1-az1 but has no spot price for it" in text


def test_an_unpriced_review_summary_says_price_unknown_once(project):
    _unpriced(project)
    result = run("plan", "-s", "training-a100", "--markdown")
    assert result.exit_code == 0, result.output
    summary = next(line for line in result.stdout.splitlines() if "to create" in line)
    assert summary.count("price unknown") == 1 and "/hour" not in summary


SPOT_ONLY = WORKLOAD.replace("purchase: any ", "purchase: spot ")
HELD = (
    "reservations: [{provider: aws, instance_type: p4d.24xlarge, zone: use1-az1, nodes: 2, usd_per_hour: 0, id: cr-1}]"
)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(
            "commitment: 1y\n",
            "commitment: a 1y reserved term (reserved instances, savings plan) replaces on-demand capacity, never "
            "spot, so purchase: spot would ignore it; set purchase: any",
            id="commitment",
        ),
        pytest.param(
            HELD + "\n",
            "reservations: held capacity (a capacity reservation or Capacity Block) runs on-demand, never spot",
            id="reservations",
        ),
    ],
)
def test_spot_only_with_a_commitment_or_held_capacity_is_one_line(project, extra, message):
    path = project / "w.yaml"
    path.write_text(SPOT_ONLY + extra)
    result = run("resolve", str(path))
    assert result.exit_code == 2 and result.stderr == f"error: {path}: {message}" + result.stderr.split(message)[1]
    assert result.stderr.count("\n") == 1


def test_purchase_any_ranks_the_commitment_beside_spot(project):
    path = project / "w.yaml"
    path.write_text(WORKLOAD + "commitment: {term: 1y, reuse: 1}\n")  # the rest of the term reused: priced per hour
    result = run("resolve", str(path), "--top", "40", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    purchases = {r["purchase"] for r in [data["choice"], *data["alternatives"]]}
    assert {"spot", "reserved-1y"} <= purchases, purchases


def test_work_beyond_the_run_time_limit_is_the_same_line_as_hours(project):
    """`work:` that takes longer than 3 years even on the fastest offering is refused with the
    limit `hours:` has: 6 x 13e9 params x 1e18 tokens = 7.8e28 FLOPs."""
    from profiles.spec.units import RUN_LIMIT

    path = project / "w.yaml"
    path.write_text("name: t\naccelerators: [H100:8]\nnodes: 2\nwork: {params: 13B, tokens: 1000000T, mfu: 0.4}\n")
    result = run("resolve", str(path))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"error: {path}: work: the job takes ")
    assert f"the fastest; {RUN_LIMIT}; check the units of work" in result.stderr
    hours = project / "h.yaml"
    hours.write_text("name: t\naccelerators: [H100:8]\nnodes: 2\nhours: 1000000000h\n")
    assert RUN_LIMIT in run("resolve", str(hours)).stderr  # the same limit, the same words


def test_the_two_resnet50_examples_describe_the_same_work():
    """imagenet-s3.yaml trains the ResNet-50 of resnet50-imagenet.yaml: the same published
    figures (24.5 GFLOPs per image, mfu 0.16 from NVIDIA's 8x A100 figure, T3), so the example
    with data is not 4.5x faster than the one without (it said 12G at mfu 0.35)."""
    from profiles.spec import load_spec

    folder = ROOT / "profiles" / "workloads"
    s3, published = load_spec(folder / "imagenet-s3.yaml").work, load_spec(folder / "resnet50-imagenet.yaml").work
    assert s3 is not None and published is not None
    assert (s3.images, s3.epochs, s3.flops_per_image, s3.mfu) == (1281167, 90, 24.5e9, 0.16)
    assert (s3.images, s3.epochs, s3.flops_per_image, s3.mfu) == (
        published.images,
        published.epochs,
        published.flops_per_image,
        published.mfu,
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param(
            "estimate: list price seen 2024-12-30 (china-prices.md CP-A32); re-check with DescribePrice",
            "estimate: list price seen 2024-12-30; re-check with DescribePrice [source CP-A32]",
            id="file-and-id",
        ),
        pytest.param(
            "official list price (china-prices.md CP-T5), not per region (CP-T6)",
            "official list price, not per region [source CP-T5, CP-T6]",
            id="two-ids",
        ),
        pytest.param("listed as 270.83 CNY/h per node", "listed as 270.83 CNY/h per node", id="none"),
    ],
)
def test_source_ids_leave_user_text_for_a_trailing_source(text, shown):
    from profiles.short_text import cited

    assert cited(text) == shown


def test_a_resolve_row_cites_its_catalog_price_source_at_the_end(project):
    result = run("resolve", str(ROOT / "profiles" / "workloads" / "training-a100-alicloud.yaml"), "--json")
    assert result.exit_code == 0, result.output
    notes = json.loads(result.stdout)["choice"]["notes"]
    estimate = next(n for n in notes if n.startswith("estimate:"))
    assert "china-prices.md" not in estimate and estimate.endswith("[source CP-A32]")


@pytest.mark.parametrize(
    ("edit", "example"),
    [
        pytest.param(("capacity_gib: 4800", "capacity_gib: 4800GB"), "e.g. capacity_gib: 4471", id="gb"),  # 4,470.3 GiB
        pytest.param(("capacity_gib: 4800", "capacity_gib: 4.5TiB"), "e.g. capacity_gib: 4608", id="tib"),
        pytest.param(("hours: 72.02958904109589", "hours: 3d"), "e.g. hours: 72;", id="days"),
    ],
)
def test_a_stack_value_in_another_unit_suggests_it_in_the_keys_unit(project, edit, example):
    stack = project / "stacks" / "Pulumi.training-a100.yaml"
    stack.write_text(stack.read_text().replace(*edit))
    result = run("plan", "-s", "training-a100")
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {stack}: trainstack:cluster.")
    assert example in result.stderr


def test_a_zone_name_where_the_catalog_keys_zones_by_id_says_so(project):
    stack = project / "stacks" / "Pulumi.training-a100.yaml"
    stack.write_text(stack.read_text().replace("zone: eun1-az3", "zone: eu-north-1a"))
    result = run("plan", "-s", "training-a100")
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith(
        "; the catalog names zones by zone ID, not by name: give the ID of eu-north-1a in your account"
    )


def test_bench_commands_take_project_dir_like_the_others(project, tmp_path, monkeypatch):
    """From outside the project, `bench run` finds the stack and writes the kit under the
    project given (it said 'No such option: --project-dir')."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run("bench", "run", "-s", "training-a100", "--project-dir", str(project))
    assert result.exit_code == 0, result.output
    assert (project / "bench-kit" / "training-a100" / "run-bench.sh").is_file() and list(elsewhere.iterdir()) == []
    missing = run("bench", "run", "-s", "training-a100", "--project-dir", str(elsewhere))
    assert missing.exit_code == 2 and missing.stderr.startswith(f"error: --project-dir {elsewhere}: not a trainstack")


@pytest.mark.parametrize(
    ("nodes", "hours", "warned"),
    [
        pytest.param("auto", "hours: 72h", "a range (1-64) with fixed hours (72 h)", id="auto"),
        pytest.param("2-4", "hours: 72h", "a range (2-4) with fixed hours (72 h)", id="range"),
        pytest.param("2", "hours: 72h", None, id="one-count"),
        pytest.param("auto", "work: {gpu_hours: 1200, reference: A100-80GB}", None, id="auto-with-work"),
    ],
)
def test_a_node_range_with_fixed_hours_says_the_fewest_nodes_are_taken(project, nodes, hours, warned):
    path = project / "w.yaml"
    path.write_text(WORKLOAD.replace("nodes: 2\n", f"nodes: {nodes}\n").replace("hours: 72h", hours))
    result = run("resolve", str(path), "--top", "1")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("warning: nodes:")]
    if warned is None:
        assert lines == []
    else:
        assert len(lines) == 1 and warned in lines[0]
        assert "more nodes cannot shorten a job whose hours are given" in lines[0] and "give the job's work" in lines[0]


def test_no_offering_for_a_workload_names_its_file(project):
    path = project / "w.yaml"
    path.write_text(WORKLOAD.replace("[A100:8, A100-80GB:8]", "[A100:7]"))
    result = run("resolve", str(path))
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {path}: no offering matches"), result.stderr


@pytest.mark.parametrize(
    ("reservation", "message"),
    [
        pytest.param(
            "{provider: gcp, instance_type: a3-highgpu-8g, zone: us-central1-a, nodes: 2, usd_per_hour: 0, id: r-1}",
            "reservations.0.provider: gcp is not in providers (aws), so the reservation would be ignored",
            id="cloud-left-out",
        ),
        pytest.param(
            "{provider: aws, instance_type: p4d.24xlarge, zone: use1-az1, nodes: 2, usd_per_hour: 0, id: cr-1, "
            "placement_group: 'team pg'}",
            "reservations.0.placement_group: 'team pg' cannot be used as the existing placement group",
            id="placement-group-with-a-space",
        ),
        pytest.param(
            "{provider: aws, instance_type: p4d.24xlarge, zone: use1-az1, nodes: 2, usd_per_hour: 0, id: cr-1, "
            "kind: capacity-block, ends: tomorrow}",
            "reservations.0.ends: tomorrow is not a date and time",
            id="ends-not-a-time",
        ),
    ],
)
def test_a_reservation_the_stack_would_refuse_is_refused_in_the_workload_naming_the_file(project, reservation, message):
    path = project / "w.yaml"
    path.write_text(WORKLOAD.replace("purchase: any ", "purchase: on-demand ") + f"reservations: [{reservation}]\n")
    result = run("resolve", str(path), "--write-stack", "held")
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {path}: {message}"), result.stderr
    assert "Traceback" not in result.output and not (project / "stacks" / "Pulumi.held.yaml").exists()


@pytest.mark.parametrize(
    ("edit", "label"),
    [
        pytest.param({}, "cluster: $", id="catalog-priced"),
        pytest.param(
            {
                "p4d.24xlarge": "p5.48xlarge",
                "accelerator: A100": "accelerator: H100",
                "zone: eun1-az3": "zone: eun1-az1",
            },
            "cluster (the stack's recorded price, unconfirmed): $13.8629/hour",
            id="recorded-only",
        ),
    ],
)
def test_a_price_only_the_stack_states_is_labelled_so_on_the_cluster_line(project, edit, label):
    stack = project / "stacks" / "Pulumi.training-a100.yaml"
    text = stack.read_text()
    for old, new in edit.items():
        text = text.replace(old, new)
    stack.write_text(text)
    result = run("plan", "-s", "training-a100")
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("cluster")]
    assert line.startswith(label)


def test_the_imagenet_example_holds_imagenet_sized_data():
    """imagenet-s3.yaml's `data.size` is ImageNet-1k's training set (ILSVRC2012_img_train.tar,
    138 GB, third-party: gist vishal-keshav/0eac98fd...), not 2 TiB: copying the example buys a
    file system sized for the real data, and its files average a JPEG's size (~100 KiB)."""
    from profiles.spec import load_spec

    data = load_spec(ROOT / "profiles" / "workloads" / "imagenet-s3.yaml").data
    assert data is not None and data.size_gib * 2**30 == pytest.approx(138e9, rel=0.01)
    assert 80 <= data.size_gib * 2**20 / data.files <= 130  # KiB per image
