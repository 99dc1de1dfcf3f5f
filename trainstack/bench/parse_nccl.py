"""Read nccl-tests output (`all_reduce_perf` and the other `*_perf` binaries).

The format is the one nccl-tests prints (src/common.cu in NVIDIA/nccl-tests): `#` header
lines (`# nThread 1 nGpus 1 minBytes ...`, one `#  Rank  N Group  0 Pid  P on HOST device
D [BUS] NAME` line per rank), then one row per message size with `size count type redop
[root]` and two groups of `time algbw busbw #wrong` (out-of-place, in-place), then
`# Out of bounds values : N OK` and `# Avg bus bandwidth    : X`. Older releases have no
`root` column and print an `error` column instead of `#wrong`; both are read. NCCL's own
`NCCL INFO ... set by environment to ...` lines (with NCCL_DEBUG=INFO) give the run's
environment.
"""

from __future__ import annotations

import re
from typing import Literal

from profiles.measurements.schema import BusBandwidth, SizePoint

_RANK = re.compile(r"^#\s+Rank\s+\d+\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device")
_AVG = re.compile(r"^#\s*Avg bus bandwidth\s*:\s*([0-9.eE+-]+)")
_WRONG = re.compile(r"^#\s*Out of bounds values\s*:\s*(\d+)")
_ENV = re.compile(r"\b((?:NCCL|FI)_[A-Z0-9_]+) set by environment to (\S+)")
_TEST = re.compile(r"build/(\w+_perf)\b")


class ParseError(ValueError):
    """Raw output that cannot be read; the message names the file's problem and the fix."""


def _row(line: str) -> SizePoint | None:
    """One table row, or None when the line is not a row."""
    tokens = line.split()
    if len(tokens) < 12 or not tokens[0].isdigit() or not tokens[1].isdigit():
        return None
    try:
        time_us, algbw, busbw = (float(t) for t in tokens[-8:-5])
    except ValueError:
        return None
    return SizePoint(size_bytes=int(tokens[0]), time_us=time_us, algbw_gbs=algbw, busbw_gbs=busbw)


def parse_nccl(text: str, scope: Literal["all", "pair", "node"] | None = None) -> BusBandwidth:
    """Parse one nccl-tests run.

    Args:
        text: the program's standard output (other log lines may be mixed in).
        scope: `all`, `pair` or `node`; by default `node` for one host, else `all`.

    Returns:
        The run's bus bandwidth by message size (GB/s), its average and peak.

    Raises:
        ParseError: the text has no nccl-tests table.
    """
    hosts: list[str] = []
    ranks = 0
    rows: list[SizePoint] = []
    avg: float | None = None
    wrong = 0
    env: dict[str, str] = {}
    test = "all_reduce_perf"
    for line in text.splitlines():
        line = line.rstrip()
        if (m := _RANK.match(line)) is not None:
            ranks += 1
            hosts += [] if m.group(1) in hosts else [m.group(1)]
        elif (m := _AVG.match(line)) is not None:
            avg = float(m.group(1))
        elif (m := _WRONG.match(line)) is not None:
            wrong = int(m.group(1))
        elif (m := _TEST.search(line)) is not None and not line.startswith("#"):
            test = m.group(1)
        elif (row := _row(line)) is not None:
            rows.append(row)
        for key, value in _ENV.findall(line):
            env[key] = value
    if not rows:
        raise ParseError(
            "no nccl-tests table (rows of size, count, type, ... busbw); give the output of all_reduce_perf"
        )
    nodes = max(len(hosts), 1)
    scope = scope or ("node" if nodes == 1 else "all")
    return BusBandwidth(
        test=test,
        scope=scope,
        nodes=nodes,
        ranks=max(ranks, 1),
        hosts=tuple(hosts),
        by_size=tuple(rows),
        avg_busbw_gbs=avg,
        peak_busbw_gbs=max(r.busbw_gbs for r in rows),
        wrong=wrong,
        nccl_env=env,
    )
