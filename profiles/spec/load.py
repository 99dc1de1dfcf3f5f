"""Workload specs (`profiles/workloads/*.yaml`) as a validated `WorkloadSpec`.

Shorthands users type are accepted: `A100-80GB:8` (accelerator and GPUs per node),
`80GB`/`80GiB` (memory), `72h`/`3d`/`90m`/`2 days` (duration), `4800GiB`/`4.8TiB`
(capacity). Any error becomes a one-line `SpecError` naming the field and the fix.

A spec is read by the fast reader (`profiles.spec.reader`, no pydantic: `trainstack resolve`
stays fast) or, when that reader is unsure, by the pydantic models (`profiles.spec.model`),
whose errors users see; either way the result is the plain `WorkloadSpec` of
`profiles.spec.values`.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from clouds.input_file import STDIN, DuplicateKeyError, InputFileError, parse_yaml, read_text
from profiles.files import shown_name
from profiles.spec.reader import Unsure, read
from profiles.spec.rules import AUTO_MAX_NODES
from profiles.spec.values import FileSystemSpec, SpecError, WorkloadSpec

__all__ = ["AUTO_MAX_NODES", "FileSystemSpec", "SpecError", "WorkloadSpec", "load_spec", "parse_spec"]


def parse_spec(data: object, source: str = "spec") -> WorkloadSpec:
    """Validate a mapping (as read from YAML) into a `WorkloadSpec`.

    Raises:
        SpecError: one line, `SOURCE: FIELD: what is wrong and how to fix it`.
    """
    if not isinstance(data, dict):
        raise SpecError(f"{source}: expected a mapping of keys (name, accelerators, nodes, ...)")
    from_accelerators = "gpus_per_node" not in data and _has_counts(data.get("accelerators"))
    written = {
        "gpus_per_node": (
            f"accelerators: {data.get('accelerators')} asks for a GPU count per node "
            "outside 1-64; write NAME:N with the count of a real instance, e.g. A100:8"
        )
    }
    try:
        spec = read(WorkloadSpec, data)
    except Unsure:  # pydantic validates it, and words the error if there is one
        from profiles.spec.model import validate

        spec = validate(data, source, written if from_accelerators else None)
    if spec.file_system is not None and not data.get("file_system"):  # sized from `data`: nothing stated
        spec = spec._replace(file_system=spec.file_system._replace(given=frozenset()))
    return spec._replace(gpus_key="accelerators") if from_accelerators else spec


def _has_counts(raw: object) -> bool:
    """True when an `accelerators` value carries `NAME:N` counts."""
    tokens = [raw] if isinstance(raw, str) else raw if isinstance(raw, (list, tuple)) else []
    return any(":" in str(token) for token in tokens)


def load_spec(path: Path) -> WorkloadSpec:
    """Read and validate a workload YAML file (`-`: standard input); the file's stem is the
    default name (`stdin` for standard input).

    Raises:
        SpecError: the file is missing, not UTF-8 text, not YAML, repeats a key, or is invalid
            (one-line message).
    """
    path, shown = Path(path), shown_name(path)
    try:
        data = parse_yaml(read_text(path, "workload YAML file"), shown)
    except InputFileError as exc:
        raise SpecError(str(exc)) from None
    except DuplicateKeyError as exc:
        raise SpecError(f"{shown}: {exc}; keep one (YAML would silently use the last)") from None
    except yaml.reader.ReaderError as exc:
        raise SpecError(
            f"{shown}: not a text file (character #x{exc.character:04x} at offset {exc.position}); "
            "give a workload YAML file"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise SpecError(f"{shown}:{where} not valid YAML; check indentation and quoting") from None
    if isinstance(data, dict):
        data.setdefault("name", "stdin" if str(path) == STDIN else Path(path).stem)
    return parse_spec(data, shown)
