"""The workload spec (`profiles/workloads/*.yaml`): read, checked and turned into plain values.

Entry points (re-exported here): `load_spec(path)` and `parse_spec(mapping)` return a
`WorkloadSpec` (`values.py`) or raise a one-line `SpecError`.

Inside, imports go one way, from the entry down: `load` -> `reader` (fast, no pydantic) or
`model` (pydantic, only when the reader is unsure) -> `errors`, `fields` -> `values` ->
`rules` -> `agreement`, `units`. No module here imports this package's `__init__`.
"""

from profiles.spec.load import load_spec, parse_spec
from profiles.spec.rules import AUTO_MAX_NODES
from profiles.spec.values import FileSystemSpec, SpecError, WorkloadSpec

__all__ = ["AUTO_MAX_NODES", "FileSystemSpec", "SpecError", "WorkloadSpec", "load_spec", "parse_spec"]
