"""Files in and out: `-` reads standard input wherever a file is read (`read_text`); safe
writes: a reader sees the old file or the new one, never half of either."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from clouds.input_file import (
    STDIN,  # noqa: F401  (the path that means standard input)
    shown_name,  # noqa: F401  (`<stdin>` for `-`, as messages name it)
)


def read_text(path: Path | str, errors: str = "strict") -> str:
    """The text of `path`, UTF-8, or of standard input when `path` is `-`, read by the one
    bounded reader (`clouds.input_file`: regular files only, size limit).

    Raises:
        clouds.input_file.InputFileError: the file cannot be read, is not a regular file, too
            big, or (with `errors="strict"`) not UTF-8.
    """
    from clouds.input_file import read_bytes
    from clouds.input_file import read_text as bounded

    if errors == "strict":
        return bounded(path)
    return read_bytes(path).decode("utf-8", errors=errors)


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder, then rename.

    An interrupted or failed write leaves any previous file at `path` untouched. The file
    keeps the permissions of the one it replaces; a new file gets 0o666 less the umask, as
    `open()` would give it (the temporary file alone would be 0o600).
    """
    import tempfile  # here: `read_text` is on `resolve`'s path, which writes nothing

    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """Permission bits for the file written at `path`: its current ones, else 0o666 & ~umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask. Linux shows it in /proc; elsewhere it can only be read by setting it."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
