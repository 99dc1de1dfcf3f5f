"""The fast spec reader (`profiles.spec.reader`) reads plain workloads itself, and never accepts a
spec the pydantic models refuse or reads one to other values: both readers, on every case."""

from __future__ import annotations

import copy
import types
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from clouds.input_file import parse_yaml
from profiles.cost.work import CommitmentSpec, ModelSpec, SpotSpec, WorkSpec
from profiles.spec import SpecError, WorkloadSpec
from profiles.spec.model import FileSystemModel, WorkloadModel, validate
from profiles.spec.reader import Unsure, read
from profiles.spec.values import KEYS, Commitment, FileSystemSpec, ModelShape, Spot, Work

ROOT = Path(__file__).resolve().parents[2]
PAIRS = {
    WorkloadSpec: WorkloadModel,
    FileSystemSpec: FileSystemModel,
    Work: WorkSpec,
    ModelShape: ModelSpec,
    Spot: SpotSpec,
    Commitment: CommitmentSpec,
}
BASE = parse_yaml((ROOT / "profiles" / "workloads" / "training-a100.yaml").read_text())
LLM = parse_yaml((ROOT / "profiles" / "workloads" / "llm-13b-pretrain.yaml").read_text())


def _kind(annotation: object) -> object:
    """The plain reader's `Key.kind` for a pydantic field annotation."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return _kind(args[0])
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(typing.get_args(annotation))
    if annotation == tuple[str, ...]:
        return "strs"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        plain = {model: cls for cls, model in PAIRS.items()}
        return plain.get(annotation, "pydantic")
    if annotation in (int, float, str, bool):
        return annotation.__name__  # type: ignore[union-attr]
    return "pydantic"  # tuple[ReservationSpec, ...]


def _from_pydantic(model: type[BaseModel]) -> dict[str, tuple]:
    fields = {}
    for name, info in model.model_fields.items():
        bounds = {b: getattr(m, b) for m in info.metadata for b in ("gt", "ge", "le") if hasattr(m, b)}
        pattern = next((m.pattern for m in info.metadata if getattr(m, "pattern", None)), None)
        optional = type(None) in typing.get_args(info.annotation)
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        fields[name] = (_kind(info.annotation), info.alias, optional, bounds, pattern, default)
    return fields


def _from_plain(cls: type) -> dict[str, tuple]:
    fields = {}
    for name, key in KEYS[cls].items():
        bounds = {b: getattr(key, b) for b in ("gt", "ge", "le") if getattr(key, b) is not None}
        default = cls._field_defaults.get(name)  # type: ignore[attr-defined]
        fields[name] = (key.kind, key.alias, key.optional, bounds, key.pattern, default)
    return fields


@pytest.mark.parametrize("plain", list(PAIRS), ids=lambda cls: cls.__name__)
def test_each_plain_value_mirrors_its_pydantic_model(plain):
    """Same fields, YAML keys, kinds, None-ability, bounds, patterns and defaults."""
    assert _from_plain(plain) == _from_pydantic(PAIRS[plain])
    assert set(plain._fields) - set(KEYS[plain]) <= {"given", "gpus_key"}  # set by the reader


def _both(data: dict) -> tuple[object, object]:
    """(the fast reader's value or None when unsure, pydantic's value or the error text)."""
    try:
        fast = read(WorkloadSpec, copy.deepcopy(data))
    except Unsure:
        fast = None
    try:
        slow: object = validate(copy.deepcopy(data), "spec", None)
    except SpecError as exc:
        slow = str(exc)
    return fast, slow


def _with(base: dict, **changes: object) -> dict:
    data = {**base, **changes}
    return {k: v for k, v in data.items() if v is not _DROP}


_DROP = object()
READ_FAST = [
    pytest.param(BASE, id="training-a100"),
    pytest.param(LLM, id="llm-13b-work-and-model"),
    pytest.param(_with(BASE, providers=_DROP, accelerators=["A100:8", "H100:8"]), id="whole-catalog"),
    pytest.param(_with(BASE, nodes="2-16"), id="node-range"),
    pytest.param(_with(BASE, nodes="auto"), id="nodes-auto"),
    pytest.param(_with(BASE, commitment="1y", purchase="on-demand"), id="commitment-word"),
    pytest.param(_with(BASE, commitment={"term": "3y", "reuse": 0.5}, purchase="on-demand"), id="commitment-map"),
    pytest.param(_with(BASE, commitment="none"), id="commitment-none"),
    pytest.param(_with(BASE, regions=["US-East-1", "us-east-1"], providers="AWS"), id="names-normalized"),
    pytest.param(_with(BASE, deadline="7d", purchase="spot-allowed"), id="deadline-and-alias"),
    pytest.param(_with(BASE, hours=72), id="bare-hours"),
    pytest.param(_with(BASE, accelerators="A100", gpus_per_node=8, min_gpu_memory="80GB"), id="one-name"),
    pytest.param(_with(BASE, accelerators=[], min_gpu_memory_gib="40GB"), id="memory-by-field-name"),
    pytest.param(_with(BASE, file_system={"capacity": "4.8TiB"}), id="default-throughput"),
    pytest.param(_with(BASE, spot={"checkpoint_interval": "30m", "restart": "20m", "interruptions_per_node_month": 0.5}),
                 id="spot-all-keys"),
    pytest.param(_with(LLM, model={**LLM["model"], "gradient_checkpointing": "off"}), id="checkpointing-off"),
    pytest.param(_with(LLM, model={**LLM["model"], "gradient_checkpointing": True}), id="checkpointing-true"),
    pytest.param(_with(LLM, work={"gpu_hours": 1200, "reference": "a100-80gb"}, model=_DROP), id="gpu-hours"),
    pytest.param(_with(BASE, jurisdiction="cn-mainland", providers=["alicloud"]), id="cn-mainland"),
]  # fmt: skip
OTHER = [
    pytest.param(_with(BASE, nodes=0), id="nodes-0"),
    pytest.param(_with(BASE, nodes=True), id="nodes-yes"),
    pytest.param(_with(BASE, nodes="2"), id="nodes-quoted"),
    pytest.param(_with(BASE, nodes="16-2"), id="nodes-backwards"),
    pytest.param(_with(BASE, max_nodes=True), id="max-nodes-yes"),
    pytest.param(_with(BASE, hours=0), id="hours-0"),
    pytest.param(_with(BASE, hours=float("inf")), id="hours-inf"),
    pytest.param(_with(BASE, hours="1000000000h"), id="hours-absurd"),
    pytest.param(_with(BASE, hours=_DROP), id="no-hours"),
    pytest.param(_with(BASE, name="Bad_Name"), id="name-pattern"),
    pytest.param(_with(BASE, name="ok\n"), id="name-newline"),
    pytest.param(_with(BASE, name=7), id="name-number"),
    pytest.param(_with(BASE, capacty="1TiB"), id="unknown-key"),
    pytest.param(_with(BASE, gpus_per_node=65, accelerators=["A100"]), id="gpus-65"),
    pytest.param(_with(BASE, accelerators=["A100:7", "A100:8"]), id="two-counts"),
    pytest.param(_with(BASE, accelerators=5), id="accelerators-number"),
    pytest.param(_with(BASE, purchase="spotty"), id="purchase-unknown"),
    pytest.param(_with(BASE, spot=_DROP), id="spot-missing"),
    pytest.param(_with(BASE, spot={"checkpoint_interval": None}), id="spot-null-interval"),
    pytest.param(_with(BASE, min_gpu_memory="80GB", min_gpu_memory_gib=80), id="alias-and-name"),
    pytest.param(_with(BASE, file_system={"capacity": "999999999TiB"}), id="capacity-absurd"),
    pytest.param(_with(BASE, file_system={"capacity": "4800GiB", "throughput": "250"}), id="throughput-text"),
    pytest.param(_with(BASE, file_system={"capacity": "4800GiB", "throughput": 250.0}), id="throughput-float"),
    pytest.param(_with(BASE, file_system="big"), id="file-system-text"),
    pytest.param(_with(LLM, work={**LLM["work"], "gpu_hours": 10}), id="work-two-ways"),
    pytest.param(_with(LLM, work={**LLM["work"], "mfu": 1.5}), id="mfu-above-1"),
    pytest.param(_with(LLM, model={**LLM["model"], "layers": 0}), id="layers-0"),
    pytest.param(_with(LLM, model={**LLM["model"], "params": "14B"}), id="params-differ"),
    pytest.param(_with(LLM, work={"gpu_hours": 1200, "reference": "Z100"}, model=_DROP), id="unknown-reference"),
    pytest.param(_with(BASE, commitment="2y", purchase="on-demand"), id="commitment-2y"),
    pytest.param(_with(BASE, nodes=4, max_nodes=2), id="max-below-nodes"),
    pytest.param(_with(BASE, commitment="1y", purchase="spot"), id="commitment-with-spot"),
    pytest.param(_with(BASE, regions=5), id="regions-number"),
    pytest.param(_with(BASE, providers=["oracle"]), id="provider-unknown"),
    pytest.param(_with(BASE, data={"source": "s3://team-data/x", "size": "1TiB"}), id="data-left-to-pydantic"),
    pytest.param(_with(BASE, job={"command": "/fsx/train.py"}), id="job-left-to-pydantic"),
    pytest.param(
        _with(BASE, reservations=[{"provider": "aws", "instance_type": "p4d.24xlarge", "zone": "use1-az4",
                                   "nodes": 2, "usd_per_hour": 0, "id": "cr-0123"}]),
        id="reservations-left-to-pydantic",
    ),
]  # fmt: skip


@pytest.mark.parametrize("data", READ_FAST)
def test_plain_workloads_are_read_without_pydantic_to_pydantics_values(data):
    fast, slow = _both(data)
    assert fast is not None, "the fast reader should read this spec itself"
    assert fast == slow


@pytest.mark.parametrize("data", OTHER)
def test_the_fast_reader_leaves_the_rest_to_pydantic(data):
    """Refused specs, and values only pydantic coerces: the fast reader is unsure of each."""
    fast, _ = _both(data)
    assert fast is None


@pytest.mark.parametrize("path", sorted((ROOT / "profiles" / "workloads").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_workload_reads_the_same_both_ways(path):
    data = parse_yaml(path.read_text())
    fast, slow = _both(data)
    assert isinstance(slow, WorkloadSpec)
    assert fast is None or fast == slow
