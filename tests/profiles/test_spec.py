import re
from pathlib import Path

import pytest

from profiles.spec import SpecError, load_spec, parse_spec
from tests.cases import cases

WORKLOADS = Path(__file__).parents[2] / "profiles" / "workloads"


def test_training_a100_workload_reads_all_shorthands():
    spec = load_spec(WORKLOADS / "training-a100.yaml")
    assert spec.name == "training-a100"
    assert spec.accelerators == ("A100", "A100-80GB")
    assert spec.gpus_per_node == 8
    assert spec.nodes == 2
    assert spec.interconnect == "rdma"
    assert spec.purchase == "any"
    assert spec.hours == 72.0
    assert spec.providers == ("aws",)
    assert spec.file_system.capacity_gib == 4800.0
    assert spec.file_system.throughput_mbps_per_tib == 250


def test_memory_shorthand_and_single_string_lists():
    spec = parse_spec({"min_gpu_memory": "80GB", "gpus_per_node": 8, "providers": "gcp", "hours": "3d"})
    assert spec.min_gpu_memory_gib == 80.0
    assert spec.providers == ("gcp",)
    assert spec.hours == 72.0
    assert spec.accelerators == ()


def test_spot_allowed_alias_means_any():
    spec = parse_spec(
        {
            "accelerators": "A100",
            "purchase": "spot-allowed",
            "hours": 1,
            "spot": {"checkpoint_interval": "30m"},
            "file_system": {"capacity": "1200GiB"},
        }
    )
    assert spec.purchase == "any"
    assert spec.spot.checkpoint_interval_hours == 0.5


@pytest.mark.parametrize(("data", "message"), cases("spec_errors.yaml", "data", "message"))
def test_errors_are_one_line_and_name_the_field(data, message):
    with pytest.raises(SpecError, match=message) as caught:
        parse_spec(data, "w.yaml")
    assert "\n" not in str(caught.value)


def test_missing_file_and_broken_yaml(tmp_path):
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "absent.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("accelerators: [A100\nnodes: 2\n")
    with pytest.raises(SpecError, match=r"broken\.yaml: line \d+ not valid YAML"):
        load_spec(broken)


def test_file_stem_is_default_name(tmp_path):
    path = tmp_path / "my-job.yaml"
    path.write_text("accelerators: L4:1\nhours: 2h\n")
    assert load_spec(path).name == "my-job"


BASE = {"accelerators": "A100:8", "hours": "1h"}
SPOT = {"purchase": "any", "file_system": {"capacity": "1TiB"}}


@pytest.mark.parametrize(("extra", "message"), cases("spec_nested_errors.yaml", "extra", "message"))
def test_bad_values_are_one_line_naming_the_nested_key(extra, message):
    data = {k: v for k, v in {**BASE, **extra}.items() if v is not None}
    with pytest.raises(SpecError, match=message) as caught:
        parse_spec(data, "w.yaml")
    assert "\n" not in str(caught.value)


def test_providers_are_case_insensitive_and_lowercased():
    spec = parse_spec({**BASE, "providers": ["AWS", "Gcp", "aws"]})
    assert spec.providers == ("aws", "gcp")


def test_reference_is_spelled_as_the_performance_facts_spell_it():
    spec = parse_spec({"accelerators": "A100:8", "work": {"gpu_hours": 10, "reference": "a100-80gb"}})
    assert spec.work.reference == "A100-80GB"


@pytest.mark.parametrize("hours", ["1 hour", "2 hours", "30 minutes", "1 day", "2 days", "1 week"])
def test_duration_words_everywhere_durations_are_read(hours):
    spec = parse_spec(
        {**BASE, **SPOT, "hours": hours, "deadline": hours, "spot": {"checkpoint_interval": hours, "restart": hours}}
    )
    assert spec.hours == spec.deadline_hours == spec.spot.checkpoint_interval_hours == spec.spot.restart_hours > 0


def refusal(tmp_path, content: bytes) -> str:
    """The message `load_spec` refuses a w.yaml holding `content` with (the test fails if it loads)."""
    path = tmp_path / "w.yaml"
    path.write_bytes(content)
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    return str(caught.value)


def test_binary_file_is_one_line(tmp_path):
    message = refusal(tmp_path, b"\xff\xfe\x00\x01binary")
    assert re.search(
        r"w\.yaml: not UTF-8 text \(byte 0xff at offset 0\); give a workload YAML file saved as UTF-8$", message
    )


def test_latin1_file_is_one_line(tmp_path):
    message = refusal(tmp_path, "accelerators: A100:8\nhours: 1h\nname: caf\xe9\n".encode("latin-1"))
    assert re.search(r"not UTF-8 text \(byte 0xe9 at offset \d+\)", message)


def test_valid_utf8_with_control_characters_is_not_a_text_file(tmp_path):
    message = refusal(tmp_path, b"accelerators: A100:8\nhours: 1h\x00\n")
    assert re.search(r"w\.yaml: not a text file \(character #x0000 at offset 30\); give a workload YAML file$", message)


def test_model_and_work_sizes_must_agree():
    data = {
        "accelerators": "H100:8",
        "work": {"params": "13B", "tokens": "260B", "mfu": 0.4},
        "model": {"params": "7B", "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096},
    }
    with pytest.raises(SpecError, match=r"model\.params: 7B but work\.params is 13B; .*give the same size in both"):
        parse_spec(data, "w.yaml")


@pytest.mark.parametrize(
    ("nodes", "low", "high", "counts"),
    [
        pytest.param(3, 3, None, (3,), id="one-count"),
        pytest.param("2-16", 2, 16, tuple(range(2, 17)), id="range"),
        pytest.param("2 - 4", 2, 4, (2, 3, 4), id="spaces"),
        pytest.param("auto", 1, 64, (1, 2, 4, 8, 16, 32, 64), id="auto"),
        pytest.param("1-100", 1, 100, (1, 2, 4, 8, 16, 32, 64, 100), id="wide-range-powers-of-two"),
    ],
)
def test_node_counts(nodes, low, high, counts):
    spec = parse_spec({"accelerators": "A100", "hours": 1, "nodes": nodes})
    assert (spec.nodes, spec.max_nodes, spec.node_counts()) == (low, high, counts)


@pytest.mark.parametrize("nodes", ["16-2", "0-4", "lots"])
def test_bad_node_range_is_refused(nodes):
    with pytest.raises(SpecError, match="nodes"):
        parse_spec({"accelerators": "A100", "hours": 1, "nodes": nodes})


@pytest.mark.parametrize(
    ("value", "term", "reuse"),
    [
        pytest.param("1y", "1y", 0.0, id="string"),
        pytest.param({"term": "3y", "reuse": 0.8}, "3y", 0.8, id="mapping"),
    ],
)
def test_commitment_forms(value, term, reuse):
    spec = parse_spec({"accelerators": "A100", "hours": 1, "commitment": value})
    assert (spec.commitment.term, spec.commitment.reuse) == (term, reuse)
    assert parse_spec({"accelerators": "A100", "hours": 1, "commitment": "none"}).commitment is None
