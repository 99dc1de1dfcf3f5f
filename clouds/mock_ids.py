"""Deterministic ids and addresses the clouds' mocks (`clouds/<cloud>/mock.py`) answer with.

The same logical name always gives the same value, so tests and `trainstack plan` can name
what a resource will be called without running a provider.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

_TRAILING_INDEX = re.compile(r"(?:^|-)(\d+)$")


def digest(text: str, chars: int = 8) -> str:
    """The first `chars` hex digits of sha256(`text`)."""
    return hashlib.sha256(text.encode()).hexdigest()[:chars]


def prefixed_id(prefixes: Mapping[str, str], typ: str, name: str) -> str:
    """`<prefix>-<8 hex of sha256(name)>` (`i-1a2b3c4d`); `prefixes` maps a type token to the
    real resource's id prefix, `mock` for a type it does not list."""
    return f"{prefixes.get(typ, 'mock')}-{digest(name)}"


def node_ip(name: str, wrap: int | None = None, nic: int = 0, hash_chars: int = 64) -> str:
    """`10.<nic>.x.y` from a trailing node index (`c-node-3` -> 10.0.0.13).

    Args:
        name: the node's logical name.
        wrap: when given, a name without a trailing index counts as the number the first
            `hash_chars` hex digits of sha256(name) spell, and every index wraps at `wrap` (the
            node subnet's size, 250 addresses per /24); None: a name without an index is node 0.
        nic: the second octet (GCP gives each NIC its own 10.<nic>.0.0 network).
        hash_chars: see `wrap`.
    """
    match = _TRAILING_INDEX.search(name)
    if match:
        index = int(match.group(1))
    else:
        index = 0 if wrap is None else int(digest(name, hash_chars), 16)
    if wrap is not None:
        index %= wrap
    return f"10.{nic}.{index // 250}.{index % 250 + 10}"
