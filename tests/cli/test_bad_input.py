"""Bad input through the real CLI: one `error:` line, exit 2, no traceback, nothing written."""

import shutil

import pytest

from tests.cases import cases
from tests.cli.helpers import WORKLOAD, one_error_line, run

RATE_COMMAND = "trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT"
RATE_FIX = f"record one with `trainstack catalog refresh-rate CNY` or `{RATE_COMMAND}`"


def written(project):
    return sorted(p.name for p in project.iterdir() if p.name != "Pulumi.yaml")


def spec(project, text, name="w.yaml"):
    path = project / name
    path.write_text(text)
    return str(path)


def test_binary_workload_is_one_line(project):
    path = project / "w.yaml"
    path.write_bytes(b"\xff\xfe\x00\x01\x02binary")
    one_error_line(run("resolve", str(path)), "w.yaml: not UTF-8 text (byte 0xff at offset 0)")


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "alias-bomb", "folder"])
def test_a_workload_that_would_hang_or_exhaust_is_one_line_within_a_second(project, kind):
    import os
    import time

    from tests.clouds.test_input_file import BOMB

    path = project / "w.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "alias-bomb":
        path.write_text(WORKLOAD.read_text() + BOMB.replace("a:", "xa:", 1))
    elif kind == "folder":
        path.mkdir()
    says = {"fifo": "is a pipe", "dev-zero": "is a device", "alias-bomb": "through aliases", "folder": "is a folder"}
    start = time.perf_counter()
    one_error_line(run("resolve", "/dev/zero" if kind == "dev-zero" else str(path)), says[kind])
    assert time.perf_counter() - start < 1.0


def test_an_unclosed_quote_in_the_command_is_one_line(project):
    text = WORKLOAD.read_text() + 'job: {command: "/fsx/train.py \'my run"}\n'
    one_error_line(run("resolve", spec(project, text)), 'job.command: "/fsx/train.py \'my run" cannot be split')


@pytest.mark.parametrize(("plot", "message"), cases("bad_plot_paths.yaml", "plot", "message"))
def test_bad_plot_path_is_refused_before_anything_is_written(project, plot, message):
    (project / "sub").mkdir()
    one_error_line(run("resolve", str(WORKLOAD), "--plot", plot, "--write-stack", "training-a100"), message)
    assert written(project) == ["sub"] and not any((project / "sub").iterdir())


def test_refused_stack_write_leaves_no_chart(project):
    assert run("resolve", str(WORKLOAD), "--write-stack", "training-a100").exit_code == 0
    path = project / "stacks" / "Pulumi.training-a100.yaml"
    path.write_text(path.read_text().replace("nodes: 2", "nodes: 5"))
    one_error_line(
        run("resolve", str(WORKLOAD), "--write-stack", "training-a100", "--plot", "chart.png"), "edited by hand"
    )
    assert not (project / "chart.png").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("", "stack name: give one, e.g. training-a100", id="empty"),
        pytest.param(
            "Training",
            "stack name 'Training': use 1-40 lowercase letters, digits and '-', starting with a letter",
            id="uppercase",
        ),
        pytest.param("train_a100", "stack name 'train_a100': use 1-40 lowercase", id="underscore"),
        pytest.param("train.a100", "stack name 'train.a100': use 1-40 lowercase", id="dot"),
        pytest.param("1train", "stack name '1train': use 1-40 lowercase", id="starts-with-digit"),
        pytest.param("a" * 41, f"stack name '{'a' * 41}': use 1-40 lowercase", id="too-long"),
    ],
)
def test_stack_names_the_clouds_reject_are_refused_before_resolving(project, name, message):
    one_error_line(run("resolve", str(WORKLOAD), "--write-stack", name, "--plot", "chart.png"), message)
    assert "cloud resource names derive from it" in run("resolve", str(WORKLOAD), "--write-stack", name).stderr
    assert written(project) == []


def test_longest_allowed_stack_name_is_written(project):
    name = "t" + "-a1" * 13
    assert len(name) == 40
    result = run("resolve", str(WORKLOAD), "--write-stack", name)
    assert result.exit_code == 0, result.output
    assert (project / "stacks" / f"Pulumi.{name}.yaml").exists()


@pytest.mark.parametrize(("text", "message"), cases("bad_spec_values.yaml", "text", "message"))
def test_bad_spec_values_are_one_line(project, text, message):
    one_error_line(run("resolve", spec(project, text), "--write-stack", "bad", "--plot", "chart.png"), message)
    assert written(project) == ["w.yaml"]


@pytest.mark.parametrize("hours", ["1 hour", "2 hours", "30 minutes", "1 day", "2 days", "1 week"])
def test_duration_words_resolve(project, hours):
    result = run("resolve", spec(project, f"accelerators: A100:8\nhours: {hours}\n"), "--json")
    assert result.exit_code == 0, result.output


@pytest.fixture()
def unrated(tmp_path, monkeypatch):
    """The CLI reads a copy of the catalog with its USD/CNY rate removed."""
    import json

    import profiles.catalog.loader as loader

    copy = tmp_path / "unrated"
    shutil.copytree(loader.DATA_DIR, copy, ignore=shutil.ignore_patterns("snapshots"))
    meta = json.loads((copy / "catalog.json").read_text())
    del meta["exchange_rates"]
    (copy / "catalog.json").write_text(json.dumps(meta))
    monkeypatch.setattr(loader, "DATA_DIR", copy)
    return copy


def test_cn_mainland_without_a_rate_says_how_to_record_one(project, unrated):
    result = run("resolve", spec(project, "accelerators: A100-80GB:8\nhours: 1h\njurisdiction: cn-mainland\n"))
    one_error_line(result, "'jurisdiction' removed the last")
    # ecs.ebmgn7ex.32xlarge in cn-beijing and cn-shenzhen (china-prices.md CP-A32).
    assert result.stderr.endswith(
        f"; 2 offerings listed in CNY that would fit are left out: no USD/CNY rate is recorded; {RATE_FIX}\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("accelerators: H100:8\nhours: 1h\njurisdiction: cn-mainland\n", id="no-cny-row-has-that-gpu"),
        pytest.param("accelerators: [A100:7]\nhours: 72h\n", id="gpu-count-no-row-has"),
        pytest.param("accelerators: A100-80GB:8\nhours: 1h\nproviders: [aws]\nregions: [af-south-1]\n", id="aws-only"),
    ],
)
def test_no_match_mentions_the_rate_only_when_a_cny_row_would_have_fitted(project, unrated, text):
    result = run("resolve", spec(project, text))
    assert result.exit_code == 2 and "no offering matches" in result.stderr
    assert "CNY" not in result.stderr


def test_cn_mainland_with_the_committed_rate_picks_tencent_at_its_converted_list_price(project):
    import json

    result = run("resolve", spec(project, "accelerators: A100:8\nhours: 1h\njurisdiction: cn-mainland\n"), "--json")
    assert result.exit_code == 0, result.output
    choice = json.loads(result.stdout)["choice"]
    assert (choice["provider"], choice["instance_type"], choice["region"]) == (
        "tencentcloud",
        "GT4.41XLARGE948",
        "ap-beijing",
    )
    assert choice["usd_per_hour"] == pytest.approx(34.921779, abs=1e-6)  # 237.51 CNY (CP-T4) / 6.8012 (CP-R1)
    assert choice["price_estimate"] and choice["price_observed"] == "unknown, extracted on 2026-12-01"


@pytest.mark.parametrize(
    ("text", "noted"),
    [
        pytest.param("accelerators: A100:8\nhours: 1h\n", False, id="no-providers"),
        pytest.param("accelerators: A100:8\nhours: 1h\nproviders: [aws]\n", False, id="aws-only"),
        pytest.param("accelerators: A100:8\nhours: 1h\nproviders: [aws, alicloud]\n", True, id="names-alicloud"),
    ],
)
def test_left_out_note_only_when_the_spec_names_clouds(project, unrated, text, noted):
    result = run("resolve", spec(project, text), "--json")
    assert result.exit_code == 0, result.output
    assert ("note: catalog: 68 offerings are listed in CNY" in result.stderr) is noted  # alicloud's rows


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("resolve", str(WORKLOAD), "--top", "0"), "error: Invalid value for '--top'", id="top-0"),
        pytest.param(("resolve", str(WORKLOAD), "--bogus"), "error: No such option: --bogus", id="unknown-option"),
        pytest.param(("resolve",), "error: Missing argument", id="missing-argument"),
        pytest.param(("nope",), "error: No such command 'nope'", id="unknown-command"),
    ],
)
def test_usage_errors_are_one_line(project, args, message):
    result = run(*args)
    one_error_line(result, message)
    assert "--help'" in result.stderr


def test_no_arguments_still_prints_the_help(project):
    result = run()
    assert "resolve" in result.output and "error:" not in result.output
