"""The one rule for a name that becomes part of a file or folder name, on every cloud.

trainstack puts a stack's, provider's or instance type's name into file names (the
measurement store's `<provider>-<instance_type>-x<nodes>-....json`, `stacks/Pulumi.<stack>.yaml`).
A `/` or `..` would leave the folder, a newline would split the listing, a leading `-` reads as
an option. Every cloud's names fit this rule: `p4d.24xlarge`, `Standard_ND96amsr_A100_v4`,
`a3-megagpu-8g`, `ecs.gn7i-c8g1.2xlarge`, `GN10Xp.20XLARGE320`, `p2s.2xlarge.8`, `v5p-8`.
"""

from __future__ import annotations

import re

PATH_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")


def path_name_problem(field: str, value: str) -> str | None:
    """Why `value` cannot become part of a file name (one line naming `field` and the fix), or None."""
    if PATH_NAME.fullmatch(value) and ".." not in value:
        return None
    shown = value if len(value) <= 60 else value[:57] + "..."
    return (
        f"{field}: {shown!r} cannot name a file; use 1-100 letters, digits, '.', '_', '+' and '-', "
        "starting with a letter or digit, no '..' (e.g. p4d.24xlarge)"
    )
