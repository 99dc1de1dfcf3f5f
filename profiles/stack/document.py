"""A stack file as a document, before any validation: its text parsed into a mapping (one
bounded reader, `clouds.input_file`, every refusal one line naming the file and the fix), the
checksum header that tells a generated file from a hand-edited one, and what a rewrite reads of
the file it replaces. `profiles.stack.file` validates on top and re-exports these names.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from pathlib import Path

import yaml

from clouds.config import CONFIG_KEY
from clouds.input_file import DuplicateKeyError, InputFileError, parse_yaml, read_text
from profiles.stack.names import stacks_hint as _stacks_hint

_CHECKSUM = re.compile(r"^# trainstack-checksum: sha256:([0-9a-f]{64})\n", re.MULTILINE)
_WRITTEN_BY = re.compile(r"^# Written by `trainstack resolve (.+?) --write-stack`", re.MULTILINE)


class StackFileError(ValueError):
    """A stack file cannot be read, validated or written; one line naming the file and the fix."""


def parse_document(text: str, source: str = "stack file") -> dict:
    """A stack file's text as a mapping ({} when empty).

    Raises:
        StackFileError: not YAML, a key given twice (named, with its line), or not a mapping.
    """
    try:
        document = parse_yaml(text, source)
    except InputFileError as exc:
        raise StackFileError(str(exc)) from None
    except DuplicateKeyError as exc:
        raise StackFileError(f"{source}: {exc}; keep one (the engine refuses the file too)") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise StackFileError(f"{source}: not valid YAML{where} ({problem}); check indentation and quoting") from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise StackFileError(f"{source}: expected a mapping with a `config:` key, found {type(document).__name__}")
    return document


def read_document(path: Path) -> dict:
    """The parsed stack file at `path` (see `parse_document`).

    Raises:
        StackFileError: missing, unreadable, not YAML, a repeated key, or not a mapping.
    """
    if not os.path.lexists(path):
        raise StackFileError(f"{path}: stack file not found; {_stacks_hint(Path(path))}")
    try:
        text = read_text(path, "stack file")
    except InputFileError as exc:
        raise StackFileError(str(exc)) from None
    return parse_document(text, str(path))


def digest(body: str) -> str:
    """SHA-256 hex digest of a stack file's body (what the checksum header records)."""
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def has_checksum(text: str) -> bool:
    """True when a stack file's text carries a checksum header (it was written by trainstack)."""
    return _CHECKSUM.search(text) is not None


def is_hand_edited(text: str) -> bool:
    """True when a stack file's body no longer matches the checksum it was written with
    (or it has none, i.e. it was not written by trainstack)."""
    match = _CHECKSUM.search(text)
    return match is None or digest(text[match.end() :]) != match.group(1)


def read_for_rewrite(path: Path) -> tuple[str, dict] | None:
    """`(text, mapping)` of the stack file a rewrite replaces; None when there is none.

    Raises:
        StackFileError: the file exists but cannot be read, is not YAML or repeats a key:
            rewriting it would lose the settings it holds.
    """
    if not os.path.lexists(path):
        return None
    try:
        text = read_text(path, "stack file")
        return text, parse_document(text, str(path))
    except InputFileError as exc:
        raise StackFileError(f"{exc}; resolve keeps a stack's own settings, so fix or move it, then rerun") from None
    except StackFileError as exc:
        raise StackFileError(
            f"{exc}; resolve keeps a stack's own settings, so fix the file (or move it away) first"
        ) from None


def existing(path: Path) -> dict:
    """The stack file at `path` as a mapping, `{}` when absent (for rewrites).

    Raises:
        StackFileError: as `read_for_rewrite`.
    """
    found = read_for_rewrite(path)
    return found[1] if found else {}


# What a stack's header names when no workload wrote it (`trainstack up` moving a stack written
# by hand): a placeholder, read back as no workload.
NO_WORKLOAD = "WORKLOAD"


def workload_of(text: str) -> str | None:
    """The workload file a stack file was written from, as its header names it
    ("# Written by `trainstack resolve WORKLOAD --write-stack`", `profiles.stack.writer`), or None
    (a file written by hand)."""
    found = _WRITTEN_BY.search(text)
    if not found:
        return None
    try:  # a path with spaces is written shell-quoted ('my work/w.yaml')
        words = shlex.split(found.group(1))
    except ValueError:  # an unbalanced quote: as written
        return found.group(1)
    named = words[0] if len(words) == 1 else found.group(1)
    return None if named == NO_WORKLOAD else named


def placement(text: str) -> tuple[str, str, str] | None:
    """(provider, region, zone) of a stack file's cluster; None when it cannot be read."""
    try:
        cluster = parse_document(text)["config"][CONFIG_KEY]
        return str(cluster["provider"]), str(cluster["region"]), str(cluster["zone"])
    except (StackFileError, KeyError, TypeError):
        return None
