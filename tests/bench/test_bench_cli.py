"""`trainstack bench parse` through the real CLI entry point."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from profiles.measurements.schema import RunResult
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "bench"


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """A project folder with the committed training-a100 stack, as the working directory."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100.yaml", tmp_path / "stacks")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_parse_json_is_a_valid_results_file_with_the_stack(project) -> None:
    result = run("bench", "parse", *map(str, sorted(FIXTURES.iterdir())), "-s", "training-a100", "--json")
    assert result.exit_code == 0, result.output
    parsed = RunResult.model_validate(json.loads(result.output))
    assert (parsed.provider, parsed.instance_type, parsed.nodes, parsed.stack) == (
        "aws",
        "p4d.24xlarge",
        2,
        "training-a100",
    )
    assert parsed.schema_version == 1 and parsed.busbw[0].peak_busbw_gbs == 88.30


def test_parse_summary_and_output_file(project) -> None:
    out = project / "run.json"
    result = run("bench", "parse", str(FIXTURES / "nccl-all.log"), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "busbw all 2 nodes / 16 GPUs: peak 88.3 GB/s" in result.output
    assert RunResult.model_validate_json(out.read_text()).busbw[0].ranks == 16


def test_parse_output_dash_is_standard_output(project) -> None:
    # `-` is standard input wherever a file is read, and standard output where one is written
    # (it wrote a file named `-`); a pipe gets the results file alone, as with --json
    result = run("bench", "parse", str(FIXTURES / "nccl-all.log"), "-o", "-")
    assert result.exit_code == 0, result.output
    assert RunResult.model_validate_json(result.stdout).busbw[0].ranks == 16
    assert not (project / "-").exists()


def test_parse_unknown_file_one_line_error(project) -> None:
    (project / "notes.txt").write_text("hello\n")
    result = run("bench", "parse", "notes.txt")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "notes.txt: not nccl-tests output" in result.output


def test_parse_unknown_stack(project) -> None:
    result = run("bench", "parse", str(FIXTURES / "nccl-all.log"), "-s", "nope")
    assert result.exit_code == 2 and "stack file not found" in result.output


@pytest.mark.parametrize("content", ["{}", '{"provider": "aws", "instance_type": "p4d.24xlarge", "nodes": 2}'])
def test_report_refuses_a_results_file_without_any_measurement(project, content) -> None:
    (project / "empty.json").write_text(content)
    result = run("bench", "report", "empty.json")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "empty.json: holds no measurement" in result.output


def test_parse_reads_standard_input():
    named = run("bench", "parse", str(FIXTURES / "nccl-all.log"), "--json")
    piped = CliRunner().invoke(app, ["bench", "parse", "-", "--json"], input=(FIXTURES / "nccl-all.log").read_text())
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.stdout)["busbw"] == json.loads(named.stdout)["busbw"] != []


@pytest.mark.parametrize(
    ("accelerator", "names"),
    [
        pytest.param("tpu-v5p", "TPU slice", id="tpu"),
        pytest.param("tpu-v6e", "TPU slice", id="tpu-v6e"),
        pytest.param("Trainium2", "Neuron", id="trainium"),
        pytest.param("Inferentia2", "Neuron", id="inferentia"),
        pytest.param("Gaudi HL-205", "Gaudi", id="gaudi"),
        pytest.param("Ascend 910B", "Ascend", id="ascend"),
        pytest.param("Radeon Pro V520", "AMD", id="amd"),
        pytest.param("A100-80GB", None, id="a100"),
        pytest.param("H100-MEGA", None, id="h100-mega"),
        pytest.param("T4", None, id="t4"),
        pytest.param("B300", None, id="b300"),
    ],
)
def test_kit_refuses_accelerators_its_nvidia_tools_cannot_see(accelerator, names) -> None:
    from trainstack.bench.kit_fit import kit_refusal

    refused = kit_refusal("s", accelerator)
    assert (refused is None) == (names is None)
    if names is not None:
        assert names in refused and accelerator in refused and "NVIDIA GPUs" in refused


@pytest.mark.parametrize("extra", [[], ["--send"], ["--print"]])
def test_bench_run_on_a_tpu_stack_refuses_in_one_line(project, extra) -> None:
    shutil.copy(ROOT / "stacks" / "Pulumi.training-tpu-v5p.yaml", project / "stacks")
    result = run("bench", "run", "-s", "training-tpu-v5p", *extra)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "tpu-v5p is a Google TPU slice" in result.output
    assert not (project / "bench-kit").exists()


def test_bench_help_lists_exactly_its_subcommands() -> None:
    import re

    import typer.main

    from trainstack.cli.bench_cli import bench_app

    group = typer.main.get_group(bench_app)
    listed = re.sub(r"\([^)]*\)", "", bench_app.info.help.split(":", 1)[1]).replace(".", "")
    assert sorted(w.strip() for w in listed.split(",")) == sorted(group.commands)


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        pytest.param(["parse", "-"], "x\n", "<stdin>: not nccl-tests output", id="parse-unknown"),
        pytest.param(["import", "-"], "[1, 2]", "<stdin>: a results file is one JSON object", id="import-list"),
        pytest.param(["import", "-"], "{", "<stdin>: not JSON", id="import-not-json"),
        pytest.param(["report", "-"], '"s"', "<stdin>: a results file is one JSON object", id="report-string"),
        pytest.param(["import", "-"], "\xff", "<stdin>: not UTF-8", id="import-not-utf8"),
    ],
)
def test_standard_input_errors_name_stdin(project, args, stdin, message) -> None:
    result = CliRunner().invoke(app, ["bench", *args], input=stdin.encode("latin-1"))
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith(f"error: {message}"), result.output


def test_import_from_standard_input_reads_it_once(project) -> None:
    run_file = json.loads((ROOT / "examples" / "bench" / "aws-p4de-x2.json").read_text())
    result = CliRunner().invoke(app, ["bench", "import", "-"], input=json.dumps({**run_file, "example": False}))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("imported: <stdin> -> ")
    assert len(list((project / "measurements").glob("*.json"))) == 1


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("8G", None, id="8G"),
        pytest.param("64k", None, id="lower-k"),
        pytest.param("8", None, id="8-bytes"),
        pytest.param("12Q", "is not a size", id="unknown-unit"),
        pytest.param("1.5G", "is not a size", id="fraction-the-torch-runner-cannot-read"),
        pytest.param("8G; reboot", "is not a size", id="shell-text"),
        pytest.param("", "is not a size", id="empty"),
        pytest.param("4", "below the smallest message (8 bytes)", id="below-min"),
        pytest.param("0G", "is not a size", id="zero"),
    ],
)
def test_max_bytes_problem(text, problem) -> None:
    from trainstack.bench.nccl_tests import max_bytes_problem

    found = max_bytes_problem(text)
    assert (found is None) if problem is None else (problem in found and found.startswith("--max-bytes: "))


@pytest.mark.parametrize("extra", [[], ["--print"], ["--send"]])
def test_bench_run_refuses_a_bad_max_bytes_with_or_without_send(project, extra) -> None:
    result = run("bench", "run", "-s", "training-a100", "--max-bytes", "12Q", *extra)
    assert result.exit_code == 2
    assert (
        result.output
        == "error: --max-bytes: '12Q' is not a size; write whole bytes with an optional K, M or G (powers of 1024, as nccl-tests reads them), e.g. 8G\n"
    )


def test_the_kit_runs_nccl_tests_up_to_max_bytes(project) -> None:
    result = run("bench", "run", "-s", "training-a100", "--max-bytes", "2G", "--print")
    assert result.exit_code == 0, result.output
    assert '"$NCCL_TESTS/all_reduce_perf" -b 8 -e 2G -f 2 -g 1' in result.output and "-e 8G" not in result.output
