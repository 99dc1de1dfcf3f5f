"""Every command's `--help` in one style: prose that wraps at the terminal's width, values
shown as what to type, and the exit statuses.

typer's rich help keeps the line breaks of a docstring's later paragraphs (so a sentence
breaks where the source was wrapped, not where the terminal is) and shows every option's
Python type (`<bool>` for a flag, `<str>`, `<list[Path]>`). `tidy` rewrites the built click
commands once, before click parses: paragraphs joined into one line each (rich wraps them),
flags with no type shown, and each valued option or argument shown by the value it takes
(`PATH`, `N`, or its own name: `--stack STACK`), unless the command gives a metavar itself.
"""

from __future__ import annotations

import re
from typing import Any

EXIT_STATUS = "Exit status: 0 done (no check failed); 1 the work failed or found a failure; 2 the input needs fixing."


def unwrap(text: str | None) -> str | None:
    """`text` with each paragraph on one line: single line breaks become spaces; a paragraph
    that starts with click's no-rewrap marker (`\\b`) or is a list (lines starting `-`, `*`,
    or a digit and `.`) is kept as written."""
    if not text:
        return text
    import inspect

    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if _kept(p) else " ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def _kept(paragraph: str) -> bool:
    lines = paragraph.splitlines()
    return paragraph.startswith("\b") or (len(lines) > 1 and all(re.match(r"\s*([-*]|\d+\.)\s", ln) for ln in lines))


def value_name(param: Any) -> str | None:
    """What a parameter shows for its value: "" for a flag (nothing), None for a choice
    (typer shows the choices), else `PATH`, `N`, `NUMBER` or the parameter's own name in
    capitals (`--stack` -> `STACK`), with `...` when it takes several."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    kind = getattr(param, "type_descriptor", None)
    if kind is None or kind.is_choice:
        return None
    inner = kind.annotation
    if kind.is_list:
        inner = getattr(inner, "__args__", (inner,))[0]
    if kind.is_path:
        name = "PATH"
    elif inner is int:
        name = "N"
    elif inner is float:
        name = "NUMBER"
    else:
        name = (param.name or "value").upper().replace("_", "-")
    return f"{name}..." if param.nargs != 1 else name


def _no_type(ctx: Any) -> None:
    return None


def tidy(command: Any, epilog: str = EXIT_STATUS) -> None:
    """Restyle `command` and its subcommands' help in place (see the module docstring); give
    each command without an epilog the exit-status line."""
    if getattr(command, "_help_tidied", False):
        return
    command._help_tidied = True
    command.help = unwrap(command.help)
    command.epilog = command.epilog or epilog
    for param in command.params:
        if param.param_type_name == "argument":  # its name says what it is: no Python type beside it
            param.display_type_rich = _no_type
            if param.metavar is None:
                name = (param.name or "value").upper().replace("_", "-")
                param.metavar = name + ("..." if param.nargs != 1 else "")
                if param.nargs != 1:  # typer's usage line adds its own `...`: `{RUNS}...`, not `{RUNS...}...`
                    usage = f"{{{name}}}..." if param.required else f"[{name}]..."
                    param._usage_display_name = lambda usage=usage: usage
        elif param.metavar is None or getattr(param, "is_flag", False):
            shown = value_name(param)
            if shown is not None:
                param.metavar = shown
        help_text = getattr(param, "help", None)
        if help_text:
            param.help = " ".join(help_text.split())
    help_option = command.get_help_option

    def flag_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None:
            option.metavar = ""  # a flag: no `<bool>`
        return option

    command.get_help_option = flag_help_option
    for sub in getattr(command, "commands", {}).values():
        tidy(sub, epilog)
