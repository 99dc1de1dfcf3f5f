"""Read the training benchmark's log: lines `#bench {json}` among other output.

`trainstack.bench.train` and `trainstack.bench.fsread` print one such line per result:
`{"kind": "throughput", ...}` (the `Throughput` fields), `{"kind": "fsread", ...}` (the
`FileSystemRead` fields) and `{"kind": "meta", "software": {...}, "started": ISO,
"finished": ISO}`. torchrun's `[rank0]:` prefixes and any other lines are skipped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pydantic import ValidationError

from profiles.measurements.schema import FileSystemRead, Throughput
from trainstack.bench.lines import MARK, bench_line
from trainstack.bench.parse_nccl import ParseError

__all__ = ["MARK", "TrainingLog", "bench_line", "parse_training"]


@dataclass
class TrainingLog:
    """What one training log holds."""

    throughput: list[Throughput] = field(default_factory=list)
    file_system: list[FileSystemRead] = field(default_factory=list)
    software: dict[str, str] = field(default_factory=dict)
    started: str | None = None
    finished: str | None = None


def parse_training(text: str) -> TrainingLog:
    """Collect every `#bench` result of a log.

    Raises:
        ParseError: a `#bench` line that is not valid JSON or not a known result, or none at all.
    """
    log = TrainingLog()
    for number, line in enumerate(text.splitlines(), start=1):
        at = line.find(MARK)
        if at < 0:
            continue
        try:
            data = json.loads(line[at + len(MARK) :])
            kind = data.pop("kind")
            if kind == "throughput":
                log.throughput.append(Throughput.model_validate(data))
            elif kind == "fsread":
                log.file_system.append(FileSystemRead.model_validate(data))
            elif kind == "meta":
                log.software.update({k: str(v) for k, v in data.get("software", {}).items()})
                log.started = log.started or data.get("started")
                log.finished = data.get("finished") or log.finished
            else:
                raise ParseError(f"line {number}: unknown #bench kind '{kind}'")
        except (json.JSONDecodeError, KeyError, AttributeError, ValidationError) as exc:
            problem = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else "not a #bench result"
            raise ParseError(f"line {number}: {problem}; the line must be `#bench` and a JSON result") from None
    if not (log.throughput or log.file_system or log.software):
        raise ParseError("no `#bench` lines; give the log of `python -m trainstack.bench.train`")
    return log
