"""The one bounded reader for every YAML or JSON file trainstack reads (workloads, stacks,
bench results, cloud files).

A workload or stack file may come from a pull request (CI plans it), so reading one must not
hang or exhaust the machine. Each file is:
- a regular file (a FIFO would block the reader forever; `/dev/zero` never ends): opened
  non-blocking and checked with `fstat` before a byte is read;
- at most `MAX_BYTES` long (read at most one byte more, never the whole of a huge file);
- UTF-8 text;
- nested at most `MAX_DEPTH` levels (PyYAML's composer and `json` recurse per level);
- at most `MAX_NODES` values once YAML aliases are expanded (a 600-byte "billion laughs"
  alias bomb expands to 10^9 values: PyYAML builds it lazily as shared references, then any
  walk over it, such as pydantic's validation, takes minutes and gigabytes);
- free of a key given twice in one mapping (YAML 1.2 and Pulumi's Go reader refuse those; PyYAML
  would keep the last silently);
- JSON without NaN or Infinity (not JSON; Python's reader accepts them).
Every refusal is an `InputFileError` with a one-line message naming the file and the fix.
The limits are far above any real input: the largest committed stack is 3 KB, nesting 5.
"""

from __future__ import annotations

import copy
import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

import yaml

STDIN = "-"  # the path that means standard input, as in most Unix tools


def shown_name(path: Path | str) -> str:
    """`path` as messages name it: `<stdin>` for `-`."""
    return "<stdin>" if str(path) == STDIN else str(path)


MAX_BYTES = 4 * 1024 * 1024  # bytes; a stack file is ~3 KB, a bench results file ~50 KB
MAX_DEPTH = 64  # nested mappings/lists
MAX_NODES = 200_000  # values after alias expansion

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when PyYAML has it


class InputFileError(ValueError):
    """A file trainstack cannot read safely; the message is one line with the fix."""


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping gives the same key twice (attributes: key, line, first_line; 1-based lines)."""

    def __init__(self, key: str, line: int, first_line: int, mark: Any) -> None:
        super().__init__(None, None, f"duplicate key '{key}' (line {line}; first on line {first_line})", mark)
        self.key, self.line, self.first_line = key, line, first_line

    def __str__(self) -> str:
        return str(self.problem)


class _UniqueKeyLoader(_Base):  # type: ignore[misc, valid-type]
    """SafeLoader whose mappings refuse repeated keys (merge keys `<<` still work)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                if key in seen:
                    raise DuplicateKeyError(str(key), line, seen[key], key_node.start_mark)
                seen[key] = line
            except TypeError:  # an unhashable key: SafeConstructor reports it itself
                continue
        return super().construct_mapping(node, deep=deep)


def read_bytes(path: Path | str, what: str = "file", limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file at `path` (`-`: standard input), at most `limit` of them.

    Raises:
        InputFileError: missing, unreadable, not a regular file (FIFO, device, folder), or too big.
    """
    if str(path) == STDIN:
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputFileError(f"<stdin>: larger than {limit // 1024} KiB; give a {what} (they are a few KB)")
        return data
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror}); give the path of a {what}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a device or socket"
            raise InputFileError(f"{path}: is {kind}, not a regular file; give the path of a {what}")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror}); give the path of a {what}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputFileError(f"{path}: larger than {limit // 1024} KiB; give a {what} (they are a few KB)")
    return data


def read_text(path: Path | str, what: str = "file", limit: int = MAX_BYTES) -> str:
    """`read_bytes` decoded as UTF-8.

    Raises:
        InputFileError: as `read_bytes`, or not UTF-8 text (names the byte and its offset).
    """
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            f"{shown_name(path)}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); give a {what} saved as UTF-8"
        ) from None


def _yaml_shape_problem(text: str) -> str | None:
    """Why `text`'s YAML is too deep or expands to too many values, from its event stream
    (no object is built); None when within `MAX_DEPTH` and `MAX_NODES`."""
    anchors: dict[str, int] = {}
    open_: list[list] = []  # [anchor, values so far] per open collection
    total = 0
    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= MAX_DEPTH:
                line = event.start_mark.line + 1
                return f"nested more than {MAX_DEPTH} levels deep (line {line}); flatten it"
            open_.append([event.anchor, 1])
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, count = open_.pop()
        elif isinstance(event, yaml.ScalarEvent):
            anchor, count = event.anchor, 1
        elif isinstance(event, yaml.AliasEvent):
            anchor, count = None, anchors.get(event.anchor, 1)
        else:
            continue
        if anchor:
            anchors[anchor] = count
        if open_:
            open_[-1][1] = min(open_[-1][1] + count, MAX_NODES + 1)
        else:
            total += count
        if max(total, open_[-1][1] if open_ else 0) > MAX_NODES:
            line = event.start_mark.line + 1
            return f"expands to more than {MAX_NODES} values through aliases (line {line}); write the values out"
    return None


def parse_yaml(text: str, source: str = "file") -> Any:
    """Parse one YAML document within the bounds above, refusing a key given twice.

    Raises:
        InputFileError: too deep or too many values (one line).
        DuplicateKeyError: a mapping repeats a key (key and both lines).
        yaml.YAMLError: the text is not YAML (callers word it for their file).
    """
    if len(text) > MAX_BYTES:
        raise InputFileError(f"{source}: larger than {MAX_BYTES // 1024} KiB")
    kept = _PARSED.get(text, _NOT_KEPT)
    if kept is not _NOT_KEPT:
        return copy.deepcopy(kept)
    try:
        problem = _yaml_shape_problem(text)
    except yaml.YAMLError as exc:
        if "nesting depth" not in str(exc):  # libyaml's own limit (1000 flow levels)
            raise
        problem = f"nested more than {MAX_DEPTH} levels deep (line {exc.problem_mark.line + 1}); flatten it"  # type: ignore[attr-defined]
    if problem:
        raise InputFileError(f"{source}: {problem}")
    document = yaml.load(text, Loader=_UniqueKeyLoader)
    if len(text) <= _KEPT_BYTES:
        if len(_PARSED) >= _PARSED_KEPT:
            del _PARSED[next(iter(_PARSED))]  # the oldest
        _PARSED[text] = copy.deepcopy(document)
    return document


# text -> the document parsed from it: a plan reads its stack file several times (the CLI's
# check, the program, the price), each a full YAML parse (~0.25 ms for a stack file); a copy of
# the document parsed before is a twentieth of that. Only texts that parsed are kept, so a
# refused one is refused again with its own message; the caller gets a copy it may change.
_PARSED: dict[str, Any] = {}
_PARSED_KEPT = 64
_KEPT_BYTES = 64 * 1024  # stack files and workloads, not a large results file
_NOT_KEPT = object()


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number; write a finite number or null")


def parse_json(text: str, source: str = "file") -> Any:
    """Parse JSON within `MAX_DEPTH` and without NaN/Infinity.

    Raises:
        InputFileError: not JSON, too deep or holding NaN/Infinity (one line, with the place).
    """
    depth = 0
    for token in _JSON_TOKENS.finditer(text):
        mark = token.group()
        depth += 1 if mark in "[{" else -1 if mark in "]}" else 0
        if depth > MAX_DEPTH:
            line = text.count("\n", 0, token.start()) + 1
            raise InputFileError(f"{source}: nested more than {MAX_DEPTH} levels deep (line {line}); flatten it")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{source}: not JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise InputFileError(f"{source}: {str(exc).splitlines()[0]}") from None


def load_json(path: Path | str, what: str = "JSON file", limit: int = MAX_BYTES) -> Any:
    """`read_text` then `parse_json` (one-line `InputFileError` for every failure)."""
    return parse_json(read_text(path, what, limit), shown_name(path))
