"""Stack names for messages: the valid name closest to one typed (`valid_stack_name`) and what
to do about a missing stack file (`stacks_hint`), so every suggestion is a name
`--write-stack` accepts."""

from __future__ import annotations

import re
from pathlib import Path

# Every cloud resource name derives from the stack name (`f"{name}-nodes"`), so it suits the
# strictest cloud: GCP's lowercase letters, digits and hyphens; Azure's 64-character names.
STACK_NAME = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


def valid_stack_name(name: str) -> str:
    """`name` made into a stack name `STACK_NAME` accepts, for suggestions: lowercase, each
    run of other characters one '-', a letter first (`Training_A100` -> `training-a100`,
    `2nd run` -> `stack-2nd-run`), at most 40 characters; `stack` when nothing is left."""
    if STACK_NAME.fullmatch(name):
        return name
    words = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not words[:1].isalpha():
        words = f"stack-{words}".strip("-")
    return words[:40].rstrip("-")


# Why `-` is no stack: it means standard input (or output) where a file is read (or written).
STACK_IS_NAMED = (
    "a stack is a name (stacks/Pulumi.NAME.yaml; cloud resource names derive from it), not standard input or output"
)


def stacks_hint(path: Path) -> str:
    """What to do about a missing stack file: the closest stack names beside it (a typo) or the
    ones there, then how to write it."""
    import difflib

    from clouds.words import listed

    # `stacks/Pulumi.<name>.yaml`; a name typed with '/' (`-s team/x`) spans folders, so the name
    # is read from the stacks folder on, not from the file's own name (`x`, another stack)
    text, marker = path.as_posix(), "stacks/Pulumi."
    start = text.rfind(marker)
    name = text[start + len(marker) :].removesuffix(".yaml") if start >= 0 else path.name.removesuffix(".yaml")
    folder = Path(text[: start + len("stacks")]) if start >= 0 else path.parent
    rule = ""
    if name == "-":  # `-s -`: standard input is read for files, and a stack is named, not read
        rule = f"{STACK_IS_NAMED}; "
    elif not STACK_NAME.fullmatch(name):  # suggest (and look for) the valid name it is closest to
        rule = "a stack name is 1-40 lowercase letters, digits and '-', starting with a letter; "
        name = valid_stack_name(name)
    here = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in folder.glob("Pulumi.*.yaml"))
    write = f"`trainstack resolve WORKLOAD --write-stack {valid_stack_name(name)}` writes it"
    close = difflib.get_close_matches(name, here, n=3, cutoff=0.6)
    if close:
        return f"{rule}did you mean {' or '.join(close)}? ({write})"
    return rule + (f"stacks here: {listed(here)}; {write}" if here else write)
