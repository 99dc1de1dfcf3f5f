"""A rewrite of an existing stack that would replace its file system needs --force and says
what it replaces, also when the stack was edited by hand (a file system grown by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from profiles.stack.file import StackFileError, digest, write_stack

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = (ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text()
CHECKSUM = re.compile(r"^# trainstack-checksum: sha256:[0-9a-f]{64}\n", re.M)


def signed(text: str) -> str:
    """`text` with its checksum line recomputed: a stack trainstack wrote, not edited by hand."""
    match = CHECKSUM.search(text)
    assert match
    return (
        text[: match.start()] + f"# trainstack-checksum: sha256:{digest(text[match.end() :])}\n" + text[match.end() :]
    )


def with_fs(text: str, capacity: int = 4800, throughput: int = 250) -> str:
    text = text.replace("capacity_gib: 4800", f"capacity_gib: {capacity}")
    return text.replace("throughput_mbps_per_tib: 250", f"throughput_mbps_per_tib: {throughput}")


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        pytest.param(
            with_fs(COMMITTED, 9600), with_fs(COMMITTED), "capacity 9,600 -> 4,800 GiB (a shrink)", id="shrink"
        ),
        pytest.param(
            with_fs(COMMITTED), with_fs(COMMITTED, throughput=500), "throughput 250 -> 500 MB/s per TiB", id="tier"
        ),
    ],
)
def test_a_rewrite_that_replaces_the_file_system_needs_force(tmp_path, old, new, says):
    path = tmp_path / "stacks" / "Pulumi.training-a100.yaml"
    path.parent.mkdir()
    path.write_text(signed(old))
    with pytest.raises(StackFileError, match=re.escape(says)) as caught:
        write_stack(path, signed(new))
    assert "which replaces it: `pulumi up` would delete the file system and the data on it" in str(caught.value)
    assert "--force does not keep a size grown by hand" in str(caught.value)
    assert path.read_text() == signed(old)  # nothing written
    assert write_stack(path, signed(new), force=True) and path.read_text() == signed(new)


def test_a_file_system_grown_by_hand_is_named_in_the_hand_edit_refusal(tmp_path):
    path = tmp_path / "stacks" / "Pulumi.training-a100.yaml"
    path.parent.mkdir()
    path.write_text(with_fs(signed(COMMITTED), 9600))  # grown by hand: the checksum no longer matches
    with pytest.raises(StackFileError) as caught:
        write_stack(path, signed(COMMITTED))
    message = str(caught.value)
    assert "edited by hand since trainstack wrote it; pass --force to replace its cluster" in message
    assert "it also changes the file system's capacity 9,600 -> 4,800 GiB (a shrink), which replaces it" in message


def test_growing_the_file_system_is_written_without_force(tmp_path):
    path = tmp_path / "stacks" / "Pulumi.training-a100.yaml"
    path.parent.mkdir()
    path.write_text(signed(COMMITTED))
    assert write_stack(path, signed(with_fs(COMMITTED, 9600)))
