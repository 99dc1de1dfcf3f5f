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
    spec = parse_spec({"accelerators": "A100", "purchase": "spot-allowed", "hours": 1,
                       "spot": {"checkpoint_interval": "30m"}, "file_system": {"capacity": "1200GiB"}})
    assert spec.purchase == "any"
    assert spec.spot.checkpoint_interval_hours == 0.5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param({"accelerators": "A100", "hourz": 3}, r"^w\.yaml: hourz: unknown key; valid keys: accelerators,", id="unknown-key"),
        pytest.param({"accelerators": "A100", "hours": "3 fortnights"}, r"^w\.yaml: hours: unknown duration unit", id="bad-duration"),
        pytest.param({"accelerators": ["A100:8", "H100:4"]}, r"^w\.yaml: accelerators: entries ask for different GPU counts", id="mixed-counts"),
        pytest.param({"accelerators": "A100:8", "gpus_per_node": 4}, r"accelerators: entries ask for different", id="count-conflict"),
        pytest.param({"nodes": 2}, r"^w\.yaml: accelerators: name at least one", id="no-accelerator"),
        pytest.param({"accelerators": "A100", "nodes": 0}, r"^w\.yaml: nodes: Input should be greater than or equal to 1", id="zero-nodes"),
        pytest.param({"accelerators": "A100", "purchase": "cheap"}, r"^w\.yaml: purchase: Input should be 'any', 'spot' or 'on-demand'", id="bad-purchase"),
        pytest.param({"accelerators": "A100", "interconnect": "infiniband"}, r"^w\.yaml: interconnect: Input should be 'none' or 'rdma'", id="bad-interconnect"),
        pytest.param({"accelerators": "A100", "file_system": {"capacity": "big"}}, r"^w\.yaml: file_system\.capacity: cannot read 'big'", id="bad-capacity"),
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
