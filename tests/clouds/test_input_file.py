"""clouds.input_file: every hostile file is refused in one line, fast and without the memory
it asks for (an alias bomb, a FIFO, /dev/zero, a huge or deeply nested file)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import yaml

from clouds.input_file import (
    MAX_BYTES,
    MAX_DEPTH,
    DuplicateKeyError,
    InputFileError,
    parse_json,
    parse_yaml,
    read_text,
)

# The 600-byte "billion laughs": 9 levels of 9 aliases, 9^9 = 387 million values.
BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)


def test_the_alias_bomb_is_refused_in_well_under_a_second():
    start = time.perf_counter()
    with pytest.raises(InputFileError, match="expands to more than 200000 values through aliases"):
        parse_yaml(BOMB, "w.yaml")
    assert time.perf_counter() - start < 0.5


def test_a_few_aliases_still_work():
    assert parse_yaml("a: &x [1, 2]\nb: *x\nbase: &b {k: 1}\nc: {<<: *b, j: 2}\n") == {
        "a": [1, 2],
        "b": [1, 2],
        "base": {"k": 1},
        "c": {"k": 1, "j": 2},
    }


def test_deep_yaml_and_json_are_refused_with_the_line():
    with pytest.raises(InputFileError, match=f"nested more than {MAX_DEPTH} levels deep \\(line 1\\)"):
        parse_yaml("a: " + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputFileError, match=f"nested more than {MAX_DEPTH} levels deep \\(line 2\\)"):
        parse_yaml("a: 1\nb: " + "[" * 100 + "]" * 100)
    with pytest.raises(InputFileError, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse_json('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert parse_json('{"a": "[[[[[[[[[["}') == {"a": "[[[[[[[[[["}  # brackets in strings do not count


def test_a_repeated_key_is_named():
    with pytest.raises(DuplicateKeyError, match="duplicate key 'hours' \\(line 2; first on line 1\\)"):
        parse_yaml("hours: 1\nhours: 2\n")


def test_a_text_parsed_again_gives_an_equal_document_of_its_own_and_a_refused_one_is_refused_again():
    text = "config:\n  a: &x {k: [1, 2]}\n  b: *x\n"
    for _ in range(3):
        document = parse_yaml(text)
        assert document == {"config": {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}}}
        assert document["config"]["a"] is document["config"]["b"]  # an alias stays one object, as parsed
        document["config"]["a"]["k"].append(3)  # the caller's own copy: a later parse never sees it
    for source in ("one.yaml", "two.yaml"):
        with pytest.raises(DuplicateKeyError, match="duplicate key 'hours'"):
            parse_yaml("hours: 1\nhours: 2\n", source)
        with pytest.raises(InputFileError, match=f"^{source}: nested more than"):
            parse_yaml("a: 1\nb: " + "[" * 100 + "]" * 100, source)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}'])
def test_json_without_nan_or_infinity(text):
    with pytest.raises(InputFileError, match="is not a JSON number; write a finite number or null"):
        parse_json(text)


def test_a_fifo_is_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "w.yaml"
    os.mkfifo(fifo)
    start = time.perf_counter()
    with pytest.raises(InputFileError, match="is a pipe, not a regular file"):
        read_text(fifo, "workload YAML file")
    assert time.perf_counter() - start < 0.5


def test_dev_zero_and_a_folder_are_refused(tmp_path: Path):
    with pytest.raises(InputFileError, match="/dev/zero: is a device or socket, not a regular file"):
        read_text("/dev/zero")
    with pytest.raises(InputFileError, match="is a folder, not a regular file"):
        read_text(tmp_path)


def test_a_huge_file_is_refused_without_reading_it_all(tmp_path: Path):
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(10 * MAX_BYTES)  # sparse: 40 MiB of zeros
    with pytest.raises(InputFileError, match="larger than 4096 KiB"):
        read_text(big)


def test_missing_and_not_utf8(tmp_path: Path):
    with pytest.raises(InputFileError, match="cannot read \\(No such file or directory\\)"):
        read_text(tmp_path / "none.yaml")
    (tmp_path / "b.yaml").write_bytes(b"a: \xff")
    with pytest.raises(InputFileError, match="not UTF-8 text \\(byte 0xff at offset 3\\)"):
        read_text(tmp_path / "b.yaml")


def test_plain_yaml_errors_are_left_to_the_caller():
    with pytest.raises(yaml.YAMLError):
        parse_yaml("a: [1, 2")
