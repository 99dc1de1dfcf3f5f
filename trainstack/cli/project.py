"""Find the trainstack project a command works on, the way git finds its repository.

A project is a folder holding `Pulumi.yaml` and a `stacks/` folder (or, before its first
stack is written, a `Pulumi.yaml` that sets `stackConfigDir: stacks`, as trainstack's does). Commands that read or
write stacks look in the working directory and then each parent in turn; `--project-dir`
names the project instead. Outside any project they refuse with one line rather than
reading or creating `./stacks/` wherever the user happens to be.
"""

from __future__ import annotations

import re
from pathlib import Path

STACKS = "stacks"
MARKER = "Pulumi.yaml"

# The `--project-dir` option's help, the same on every command that reads the project.
PROJECT_HELP = "The trainstack project (holds Pulumi.yaml and stacks/); default: found from here upwards."


class ProjectError(ValueError):
    """No trainstack project was found or the one given is not a project; one line."""


_STACK_CONFIG_DIR = re.compile(rf"^stackConfigDir:\s*['\"]?(\./)?{STACKS}/?['\"]?\s*$", re.MULTILINE)


def is_project(folder: Path) -> bool:
    """True when `folder` holds `Pulumi.yaml` and either a `stacks/` folder or a Pulumi.yaml
    that keeps its stack files there (`stackConfigDir: stacks`)."""
    marker = folder / MARKER
    if not marker.is_file():
        return False
    if (folder / STACKS).is_dir():
        return True
    try:
        return bool(_STACK_CONFIG_DIR.search(marker.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return False


def find_project(given: Path | None = None, start: Path | None = None) -> Path:
    """The project folder: `given` when set, else the nearest project at or above `start`.

    Args:
        given: the `--project-dir` value, or None.
        start: where the search begins (default: the working directory).

    Raises:
        ProjectError: `given` is not a project, or no folder from `start` up is one.
    """
    if given is not None:
        folder = Path(given).expanduser()
        if not is_project(folder):
            missing = MARKER if not (folder / MARKER).is_file() else f"{STACKS}/"
            raise ProjectError(
                f"--project-dir {given}: not a trainstack project (no {missing} there); "
                "give the folder that holds Pulumi.yaml and stacks/"
            )
        return folder
    here = (start or Path.cwd()).resolve()
    found = next((d for d in (here, *here.parents) if is_project(d)), None)
    if found is None:
        raise ProjectError(
            f"{here} is not inside a trainstack project (no folder here or above holds "
            "Pulumi.yaml and stacks/); cd into the project or pass --project-dir PATH"
        )
    return found
