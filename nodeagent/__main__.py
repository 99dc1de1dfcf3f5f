"""`python -m nodeagent run [JOB_FILE]` (a worker node) or `python -m nodeagent store [PORT]` (the head)."""

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
    if unit == "store":
        from nodeagent.store import serve

        serve(int(rest[0]) if rest else RDZV_PORT)
        return 0
    print("usage: python -m nodeagent run [JOB_FILE] | store [PORT]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
