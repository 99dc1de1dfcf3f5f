"""The `#bench {json}` result line the benchmark programs print (`parse_training` reads it).

Standard library only: the programs that print it run on the nodes with nothing but torch
(`trainstack.bench.remote` ships them there), so this module imports no pydantic or profiles.
"""

from __future__ import annotations

import json

MARK = "#bench "


def bench_line(kind: str, **fields: object) -> str:
    """The log line for one result (what the kit prints and `parse_training` reads)."""
    return MARK + json.dumps({"kind": kind, **fields}, sort_keys=True)
