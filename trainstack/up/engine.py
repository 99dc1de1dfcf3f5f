"""One deployment through the Pulumi Automation API, and `pulumi up`'s flags passed through.

`automation_engine` selects (or creates) the stack in the project folder and runs `Stack.up`
with the walk's event callback; the Automation API drives the Pulumi CLI, which must be
installed (and logged in to a backend) when it runs. `up_flags` turns the `pulumi up` flags
given after `--` into `Stack.up`'s keyword arguments (pulumi.automation `Stack.up`; the CLI's
own names, "pulumi up" reference), refusing one it does not know in one line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any


class FlagError(ValueError):
    """A `pulumi up` flag `trainstack up` cannot pass through; one line naming it."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pulumi up", add_help=False, exit_on_error=False)
    parser.add_argument("-p", "--parallel", type=int)
    parser.add_argument("-m", "--message")
    parser.add_argument("-t", "--target", action="append")
    parser.add_argument("--exclude", action="append")
    parser.add_argument("--replace", action="append")
    parser.add_argument("--target-dependents", action="store_true", default=None)
    parser.add_argument("--exclude-dependents", action="store_true", default=None)
    parser.add_argument("--policy-pack", action="append", dest="policy_packs")
    parser.add_argument("--policy-pack-config", action="append", dest="policy_pack_configs")
    parser.add_argument("--expect-no-changes", action="store_true", default=None)
    parser.add_argument("--diff", action="store_true", default=None)
    parser.add_argument("-r", "--refresh", action="store_true", default=None)
    parser.add_argument("--continue-on-error", action="store_true", default=None)
    parser.add_argument("--color")
    parser.add_argument("-d", "--debug", action="store_true", default=None)
    parser.add_argument("--suppress-outputs", action="store_true", default=None)
    parser.add_argument("--suppress-progress", action="store_true", default=None)
    parser.add_argument("-y", "--yes", "--skip-preview", action="store_true", default=None, dest="_yes")
    return parser


def up_flags(given: list[str]) -> dict[str, Any]:
    """`Stack.up` keyword arguments from `pulumi up` flags (`--yes` and `--skip-preview` are
    accepted and implied: the Automation API never asks).

    Raises:
        FlagError: a flag `Stack.up` has no argument for, or a bad value.
    """
    try:
        known, unknown = _parser().parse_known_args(given)
    except (argparse.ArgumentError, SystemExit) as exc:
        raise FlagError(f"pulumi up flags: {exc}; see `pulumi up --help`") from None
    if unknown:
        raise FlagError(
            f"pulumi up flags: {unknown[0]} cannot be passed through the Automation API; run `pulumi up` "
            "yourself for it, or drop it"
        )
    return {key: value for key, value in vars(known).items() if value is not None and not key.startswith("_")}


def automation_engine(name: str, folder: Path, flags: dict[str, Any], on_event: Callable[[Any], None]) -> None:
    """Run `pulumi up` of stack `name` in `folder` through the Automation API; raises its
    `CommandError` when the update fails (the events have been handed to `on_event`)."""
    from pulumi import automation as auto  # only here: resolving imports no Pulumi

    stack = auto.create_or_select_stack(stack_name=name, work_dir=str(folder))
    stack.up(on_event=on_event, on_output=print, **flags)
