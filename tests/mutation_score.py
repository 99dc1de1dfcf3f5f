"""Print the mutation score from mutmut's `export-cicd-stats` file (used by `make mutate`).

Killed and timed-out mutants count as caught; mutants no test reaches count as survivors.
Exits 1 when fewer than `THRESHOLD` of the mutants are caught.
"""

from __future__ import annotations

import json
import sys

THRESHOLD = 0.90


def main(path: str) -> int:
    stats = json.loads(open(path, encoding="utf-8").read())
    caught = stats["killed"] + stats["timeout"]
    counted = stats["total"] - stats["skipped"]
    score = caught / counted if counted else 0.0
    print(
        f"mutation score: {caught}/{counted} mutants caught = {score:.1%} "
        f"(survived {stats['survived']}, no tests {stats['no_tests']}, suspicious {stats['suspicious']}); "
        f"target {THRESHOLD:.0%}"
    )
    return 0 if score >= THRESHOLD else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
