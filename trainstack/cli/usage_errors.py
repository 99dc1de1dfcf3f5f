"""Command-line usage errors (`--top 0`, an unknown option, a missing argument) as one line,
and the exit statuses every command uses.

typer prints click's usage errors as a usage line, a hint and a boxed message. trainstack's
rule is one `error:` line on stderr and exit status 2, so the top-level group runs click in
non-standalone mode and prints the error itself.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperGroup

# click's base error (typer vendors click in newer releases), found without a private import.
_ClickException: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


class OneLineUsageErrors(TyperGroup):
    """A typer group whose usage errors print `error: MESSAGE; see 'COMMAND --help'`, exit 2."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        from trainstack.cli.help_style import tidy

        tidy(self)  # every command's --help: clean wrapping, values not types, the exit statuses
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
        except _ClickException as exc:
            if type(exc).__name__ != "NoArgsIsHelpError":  # that one has printed the help already
                typer.echo(f"error: {one_line(exc)}", err=True)
            sys.exit(getattr(exc, "exit_code", 2))
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def one_line(exc: Exception) -> str:
    """click's message on one line, with the command's `--help` to read."""
    ctx = getattr(exc, "ctx", None)
    see = f"; see '{ctx.command_path} --help'" if ctx is not None else ""
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    return " ".join(message.split()).rstrip(".") + see


def work_failed(what: str, exc: Exception, provider: str = "") -> str:
    """One line for a cloud call that failed (`what`: `run`, `bench`): the SDK's message, never
    its class name alone; a missing or refused credential (the SDKs' `NoCredentialsError`,
    `DefaultCredentialsError`, `CredentialUnavailableError`, `ClientAuthenticationError`) with
    the fix, where docs/platforms.md lists each cloud's credentials."""
    lines = str(exc).strip().splitlines()
    message = lines[0] if lines else type(exc).__name__
    if "Credential" in type(exc).__name__ or "ClientAuthentication" in type(exc).__name__:
        cloud = f"{provider} " if provider else ""
        return (
            f"{what}: no usable {cloud}credentials ({message}); give the cloud's credentials as its SDK reads them "
            "(environment or profile: docs/platforms.md, Credentials)"
        )
    return f"{what}: {message}"


# Exit statuses, the same for every command (docs/cli.md, exit statuses): 0 done (no check
# failed); 1 the command ran and failed or found a failure (a check failed, live checks or a
# fetch could not run); 2 the input is wrong (usage, an invalid workload or stack, nothing fits).
FAILED = 1
BAD_INPUT = 2


def fail(message: str, code: int = BAD_INPUT) -> None:
    """Print `error: message` on stderr, on one line (a server's HTML error page quoted in it
    becomes the page's title: `profiles.short_text`), and exit with `code` (`BAD_INPUT`, 2,
    unless the input was fine and the work itself failed: `FAILED`, 1)."""
    from profiles.short_text import one_line as short

    typer.echo(f"error: {short(message, limit=None)}", err=True)
    raise typer.Exit(code=code)


def stdin_once(**given: object) -> None:
    """Refuse standard input (`-`) given more than once (`RUNS=[-, -]`, `--workload -` beside
    `-`): the second reader would find it empty and blame the input. Each keyword is an
    argument's name as the help shows it, its value a path or a list of them."""
    named = [
        name for name, value in given.items() for v in (value if isinstance(value, list) else [value]) if str(v) == "-"
    ]
    if len(named) > 1:
        where = " and ".join(dict.fromkeys(named)) if len(set(named)) > 1 else f"{named[0]} ({len(named)} times)"
        fail(f"{where}: `-` (standard input) can be read once; give the others as files")
