"""`python -m nodeagent run [JOB_FILE]` (a worker node),
`python -m nodeagent store [PORT [ANNOUNCE_FILE [JOB_DOC CLOUD [METADATA_URL]]]]` (the head),
`python -m nodeagent queued [CONFIG]` (a TPU cluster's queued-resource controller) or
`python -m nodeagent start-run RUN_ID [JOB_FILE]` (`trainstack run`: the job's next run id)."""

from __future__ import annotations

import logging
import sys

from nodeagent.job import JOB_FILE, NodeJob


def main(argv: list[str]) -> int:
    """Dispatch the unit named in argv[0]; exit status 2 with one line on bad use."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    unit, rest = (argv[0], argv[1:]) if argv else ("", [])
    if unit == "run":
        from nodeagent.launcher import run

        try:
            job = NodeJob.load(rest[0] if rest else JOB_FILE)
        except (OSError, ValueError, TypeError) as exc:
            print(f"nodeagent: job file: {exc}", file=sys.stderr)
            return 2
        return run(job)
    if unit == "start-run" and rest:
        from nodeagent.job import start_run
        from nodeagent.relay import current

        try:  # the job as published (a job edit reaches the node without a new job file)
            path = start_run(current(NodeJob.load(rest[1] if len(rest) > 1 else JOB_FILE)), rest[0])
            print(f"TRAINSTACK-RUN {rest[0]} {path}")
        except (OSError, ValueError, TypeError) as exc:
            print(f"nodeagent: start-run: {exc}", file=sys.stderr)
            return 3
        return 0
    if unit in ("store", "paddle-master"):  # the head (`nodeagent.store.head`: shipped to the head only)
        from nodeagent.store import head

        head(unit, rest)
        return 0
    if unit == "queued":
        from nodeagent.gcp_queued import CONFIG_FILE
        from nodeagent.gcp_queued import serve as keep_requested

        return keep_requested(rest[0] if rest else CONFIG_FILE)
    if unit == "fill":
        from nodeagent.fill import CONFIG_FILE as FILL_FILE
        from nodeagent.fill import serve as fill

        return fill(rest[0] if rest else FILL_FILE)
    print(
        "usage: python -m nodeagent run [JOB_FILE] | store|paddle-master [PORT [ANNOUNCE_FILE [JOB_DOC CLOUD [URL]]]]"
        " | queued [CONFIG] | fill [CONFIG] | start-run RUN_ID [JOB_FILE]",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
