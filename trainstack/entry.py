"""The `trainstack` console script: `resolve` without loading typer, everything else through it.

`trainstack resolve` is run often and should answer in well under 0.2 s; typer (with its
click copy and rich) alone costs tens of milliseconds to import. So a plain
`trainstack resolve WORKLOAD [--top N] [--json] [--write-stack NAME [--zone ZONE]] [--force] [--plot PATH]
[--project-dir PATH] [--live]` is parsed here and run by `trainstack.cli.resolve_cmd`, the code the typer
command runs too. Any other command line (`--help`, a bad value, an unknown option, another
command) goes to the typer app in `trainstack.cli.app`, so its help and one-line usage errors
are exactly the same.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from pathlib import Path
from typing import Any

# trainstack uses no pydantic plugins; skipping their entry-point scan keeps `resolve` fast.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

_FLAGS = {"--json": "as_json", "--force": "force", "--live": "live"}
_VALUES = {
    "--top": "top",
    "--write-stack": "write_stack",
    "--zone": "zone",
    "--plot": "plot",
    "--project-dir": "project",
}


def parse_resolve(args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of `resolve_cmd.run` for `resolve ARGS`, or None when the command
    line needs typer (help, a missing or repeated argument, an unknown option, a bad `--top`)."""
    options: dict[str, Any] = {}
    positional: list[str] = []
    items = iter(args)
    for item in items:
        name, has_value, value = item.partition("=") if item.startswith("--") else (item, "", "")
        if name in _FLAGS and not has_value:
            options[_FLAGS[name]] = True
        elif name in _VALUES:
            given = value if has_value else next(items, None)
            if given is None or _VALUES[name] in options:
                return None
            options[_VALUES[name]] = given
        elif item.startswith("-") and item != "-":
            return None
        else:
            positional.append(item)
    if len(positional) != 1:
        return None
    if "top" in options:
        if not options["top"].isdigit() or int(options["top"]) < 1:
            return None
        options["top"] = int(options["top"])
    for key in ("plot", "project"):
        if key in options:
            options[key] = Path(options[key])
    return {"workload": Path(positional[0]), **options}


def _skip_plugin_scan() -> None:
    """With plugins disabled (above), pydantic's plugin loader returns no plugins, but its
    module imports `importlib.metadata` first (several ms). Give pydantic a loader module that
    answers the same, unless the real one is already loaded or plugins are wanted."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") != "__all__" or "pydantic.plugin._loader" in sys.modules:
        return
    import types

    loader = types.ModuleType("pydantic.plugin._loader", "No pydantic plugins (PYDANTIC_DISABLE_PLUGINS=__all__).")
    loader.get_plugins = lambda: ()  # type: ignore[attr-defined]  # pydantic's own answer when disabled
    sys.modules["pydantic.plugin._loader"] = loader


def _end_now() -> None:
    """End the console script's process after a successful `resolve`, its output flushed,
    without the interpreter's teardown: clearing every module and the collector's final
    passes cost about 5 % of the command's instructions and free nothing the system would not.
    Nothing else is open by then (a written stack file is closed). Skipped when something
    registered an exit handler, which then runs as usual."""
    sys.stdout.flush()  # a reader that left raises BrokenPipeError here: handled by the caller
    sys.stderr.flush()
    if getattr(atexit, "_ncallbacks", lambda: 1)() == 0:
        os._exit(0)


def main(argv: list[str] | None = None) -> Any:
    """Run `trainstack` with `argv` (default: the process's arguments, as the console script
    does; after a fast-path `resolve` the cycle collector is then left off and the process
    ends at once, see below and `_end_now`)."""
    args = sys.argv[1:] if argv is None else argv
    parsed = parse_resolve(args[1:]) if args[:1] == ["resolve"] else None
    if parsed is not None:
        _skip_plugin_scan()
        # A short run that frees nothing cyclic: the cycle collector's passes over the modules
        # being imported and the thousands of offerings, and its last pass at exit, are pure
        # cost (~6 %). As the console script (no `argv`) the process ends right after, so the
        # collector stays off; a caller passing `argv` gets it back as it was.
        collecting = gc.isenabled() and argv is not None
        gc.disable()
        try:
            from trainstack.cli.resolve_cmd import run

            run(**parsed)
            if argv is None:
                _end_now()
        except BrokenPipeError:  # `trainstack resolve ... | head`: the reader left, as click handles it
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        finally:
            if collecting:
                gc.enable()
        return 0
    from trainstack.cli.app import app

    return app(args=args, prog_name="trainstack")


if __name__ == "__main__":
    sys.exit(main())
