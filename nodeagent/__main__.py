"""`python -m nodeagent run [JOB_FILE]` (a worker node), `python -m nodeagent store [PORT [ANNOUNCE_FILE]]`
(the head), `python -m nodeagent queued [CONFIG]` (a TPU cluster's queued-resource controller) or
`python -m nodeagent start-run RUN_ID [JOB_FILE]` (`trainstack run`: the job's next run id)."""

from __future__ import annotations

import logging
import sys

from nodeagent.job import JOB_FILE, RDZV_PORT, NodeJob


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

        try:
            path = start_run(NodeJob.load(rest[1] if len(rest) > 1 else JOB_FILE), rest[0])
            print(f"TRAINSTACK-RUN {rest[0]} {path}")
        except (OSError, ValueError, TypeError) as exc:
            print(f"nodeagent: start-run: {exc}", file=sys.stderr)
            return 3
        return 0
    if unit == "store":
        from nodeagent.store import announce_self, serve

        if len(rest) > 1:  # the head node announces where workers find it (a replaced head moves)
            try:
                announce_self(rest[1])
            except (OSError, ValueError) as exc:  # the store still serves at the configured address
                print(f"nodeagent: rendezvous announce {rest[1]}: {exc}", file=sys.stderr)
        serve(int(rest[0]) if rest else RDZV_PORT)
        return 0
    if unit == "paddle-master":  # the head of a `launcher: paddle` job
        from nodeagent.paddle_master import serve as serve_paddle
        from nodeagent.store import announce_self

        if len(rest) > 1:
            try:
                announce_self(rest[1])
            except (OSError, ValueError) as exc:
                print(f"nodeagent: rendezvous announce {rest[1]}: {exc}", file=sys.stderr)
        serve_paddle(int(rest[0]) if rest else RDZV_PORT)
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
        "usage: python -m nodeagent run [JOB_FILE] | store [PORT [ANNOUNCE_FILE]] | queued [CONFIG] | fill [CONFIG]"
        " | start-run RUN_ID [JOB_FILE] | paddle-master [PORT [ANNOUNCE_FILE]]",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
