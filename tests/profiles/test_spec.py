import math
from pathlib import Path

import pytest

from profiles.spec import SpecError, load_spec, parse_spec

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


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(
            {"accelerators": "A100", "hourz": 3},
            r"^w\.yaml: hourz: unknown key; valid keys: accelerators,",
            id="unknown-key",
        ),
        pytest.param(
            {"accelerators": "A100", "hours": "3 fortnights"},
            r"^w\.yaml: hours: unknown duration unit",
            id="bad-duration",
        ),
        pytest.param(
            {"accelerators": ["A100:8", "H100:4"]},
            r"^w\.yaml: accelerators: entries ask for different GPU counts",
            id="mixed-counts",
        ),
        pytest.param(
            {"accelerators": "A100:8", "gpus_per_node": 4},
            r"accelerators: entries ask for different",
            id="count-conflict",
        ),
        pytest.param({"nodes": 2}, r"^w\.yaml: accelerators: name at least one", id="no-accelerator"),
        pytest.param(
            {"accelerators": "A100", "nodes": 0},
            r"^w\.yaml: nodes: 0 is too small: the number of nodes .*must be at least 1; write e\.g\. nodes: 1",
            id="zero-nodes",
        ),
        pytest.param(
            {"accelerators": "A100", "purchase": "cheap"},
            r"^w\.yaml: purchase: 'cheap' is not a valid purchase option; write one of any, spot, on-demand",
            id="bad-purchase",
        ),
        pytest.param(
            {"accelerators": "A100", "interconnect": "infiniband"},
            r"^w\.yaml: interconnect: 'infiniband' is not a valid node-to-node fabric; write one of none, rdma",
            id="bad-interconnect",
        ),
        pytest.param(
            {"accelerators": "A100", "file_system": {"capacity": "big"}},
            r"^w\.yaml: file_system\.capacity: cannot read 'big'",
            id="bad-capacity",
        ),
        pytest.param({"accelerators": "A100:x"}, r"accelerators: cannot read 'A100:x'", id="bad-token"),
        pytest.param(["A100"], r"^w\.yaml: expected a mapping", id="not-a-mapping"),
    ],
)
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


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(
            {"providers": ["amazon"]},
            r"^w\.yaml: providers: 'amazon' is not a cloud trainstack knows; use aws, azure, gcp, ",
            id="unknown-provider",
        ),
        pytest.param({"hours": math.inf}, r"^w\.yaml: hours: inf is not a finite number", id="hours-inf"),
        pytest.param({"hours": math.nan}, r"^w\.yaml: hours: nan is not a finite number", id="hours-nan"),
        pytest.param({"deadline": math.inf}, r"^w\.yaml: deadline: inf is not a finite number", id="deadline-inf"),
        pytest.param({"min_gpu_memory": math.inf}, r"^w\.yaml: min_gpu_memory: inf is not a finite", id="memory-inf"),
        pytest.param({"nodes": math.inf}, r"^w\.yaml: nodes: inf is not a finite number", id="nodes-inf"),
        pytest.param(
            {"file_system": {"capacity": math.inf}},
            r"^w\.yaml: file_system\.capacity: inf is not a finite",
            id="capacity-inf",
        ),
        pytest.param(
            {**SPOT, "spot": {"checkpoint_interval": math.inf}},
            r"^w\.yaml: spot\.checkpoint_interval: inf is not a finite",
            id="checkpoint-inf",
        ),
        pytest.param(
            {**SPOT, "spot": {"checkpoint_interval": "1h", "interruptions_per_node_month": math.nan}},
            r"spot\.interruptions_per_node_month: nan is not a finite",
            id="interruptions-nan",
        ),
        pytest.param(
            {"hours": None, "work": {"gpu_hours": math.inf, "reference": "A100"}},
            r"work\.gpu_hours: inf is not a finite",
            id="gpu-hours-inf",
        ),
        pytest.param(
            {"hours": None, "work": {"params": "7B", "tokens": "1e999", "mfu": 0.4}},
            r"work\.tokens: '1e999' is not a finite",
            id="tokens-overflow",
        ),
        pytest.param(
            {"hours": None, "work": {"params": "7B", "tokens": "300B", "mfu": math.nan}},
            r"work\.mfu: nan is not a finite",
            id="mfu-nan",
        ),
        pytest.param({"nodes": True}, r"^w\.yaml: nodes: expected a number, got true", id="nodes-true"),
        pytest.param(
            {"accelerators": "A100", "gpus_per_node": True},
            r"^w\.yaml: gpus_per_node: expected a number, got true",
            id="gpus-true",
        ),
        pytest.param(
            {"file_system": {"capacity": "1TiB", "throughput": True}},
            r"file_system\.throughput: expected a number, got true",
            id="throughput-true",
        ),
        pytest.param(
            {"hours": None, "work": {"gpu_hours": True, "reference": "A100"}},
            r"work\.gpu_hours: expected a number, got true",
            id="gpu-hours-true",
        ),
        pytest.param(
            {"model": {"params": "7B", "layers": True, "hidden": 1, "heads": 1, "seq_len": 1}},
            r"model\.layers: expected a number, got true",
            id="layers-true",
        ),
        pytest.param(
            {
                "reservations": [
                    {
                        "provider": "aws",
                        "instance_type": "p5.48xlarge",
                        "zone": "z",
                        "nodes": True,
                        "usd_per_hour": 0,
                        "id": "cr-1",
                    }
                ]
            },
            r"reservations\.0\.nodes: expected a number, got true",
            id="reservation-nodes-true",
        ),
        pytest.param(
            {"reservations": [{"provider": "amazon"}]},
            r"reservations\.0\.provider: 'amazon' is not a cloud trainstack knows",
            id="reservation-provider",
        ),
        pytest.param(
            {"hours": None, "work": {"gpu_hours": 10, "reference": "Z9"}},
            r"^w\.yaml: work\.reference: no BF16 figure for 'Z9'; use one of A10, A100, A100-80GB, ",
            id="unknown-reference",
        ),
        pytest.param(
            {**SPOT, "spot": {"checkpoint_interval": "1h", "restrat": "1m"}},
            r"^w\.yaml: spot\.restrat: unknown key; valid keys: checkpoint_interval, interruptions_per_node_month, restart \(did you mean restart\?\)$",
            id="nested-unknown-key",
        ),
        pytest.param(
            {"file_system": {"capacity": "1TiB", "thruput": 3}},
            r"^w\.yaml: file_system\.thruput: unknown key; valid keys: capacity, throughput \(did you mean throughput\?\)$",
            id="file-system-unknown-key",
        ),
        pytest.param(
            {"file_system": {"capacty": "1TiB"}},
            r"^w\.yaml: file_system\.capacty: unknown key; valid keys: capacity, throughput",
            id="typo-reported-before-missing",
        ),
        pytest.param(
            {"file_system": {"throughput": 250}},
            r"^w\.yaml: file_system\.capacity: required; add it, e\.g\. \{capacity: 4800GiB, throughput: 250\}$",
            id="missing-capacity",
        ),
        pytest.param(
            {"file_system": "lustre"},
            r"^w\.yaml: file_system: expected a mapping such as \{capacity: 4800GiB, throughput: 250\}$",
            id="file-system-not-a-mapping",
        ),
        pytest.param(
            {**SPOT, "spot": "yes please"},
            r"^w\.yaml: spot: expected a mapping such as \{checkpoint_interval: 1h",
            id="spot-not-a-mapping",
        ),
        pytest.param(
            {"reservations": ["cr-0123"]},
            r"^w\.yaml: reservations\.0: expected a mapping such as \{provider: aws",
            id="reservation-not-a-mapping",
        ),
        pytest.param(
            {"providers": 5}, r"^w\.yaml: providers: expected a list such as \[aws, azure\]$", id="providers-not-a-list"
        ),
        pytest.param(
            {"accelerators": 5},
            r"^w\.yaml: accelerators: expected a name or a list such as",
            id="accelerators-not-a-list",
        ),
        pytest.param(
            {"file_system": {"capacity": "5 EB"}},
            r"^w\.yaml: file_system\.capacity: unknown size unit in '5 EB'; use KiB, MiB, GiB, TiB or PiB "
            r"\(or KB, MB, GB, TB, PB\)$",
            id="unknown-size-unit",
        ),
        pytest.param(
            {"hours": None, "work": {"gpu_hours": 10}},
            r"^w\.yaml: work\.reference: name the accelerator",
            id="reference-missing-not-doubled",
        ),
    ],
)
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


def test_binary_file_is_one_line(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_bytes(b"\xff\xfe\x00\x01binary")
    with pytest.raises(
        SpecError, match=r"w\.yaml: not UTF-8 text \(byte 0xff at offset 0\); give a workload YAML file saved as UTF-8$"
    ):
        load_spec(path)


def test_latin1_file_is_one_line(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_bytes("accelerators: A100:8\nhours: 1h\nname: caf\xe9\n".encode("latin-1"))
    with pytest.raises(SpecError, match=r"not UTF-8 text \(byte 0xe9 at offset \d+\)"):
        load_spec(path)


def test_valid_utf8_with_control_characters_is_not_a_text_file(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_bytes(b"accelerators: A100:8\nhours: 1h\x00\n")
    with pytest.raises(
        SpecError, match=r"w\.yaml: not a text file \(character #x0000 at offset 30\); give a workload YAML file$"
    ):
        load_spec(path)


def test_model_and_work_sizes_must_agree():
    data = {
        "accelerators": "H100:8",
        "work": {"params": "13B", "tokens": "260B", "mfu": 0.4},
        "model": {"params": "7B", "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096},
    }
    with pytest.raises(SpecError, match=r"model\.params: 7e\+09 differs from work\.params 1\.3e\+10; give the same"):
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
