"""Print the mutation score from mutmut's results (used by `make mutate`).

`python tests/mutation_score.py mutants/mutmut-cicd-stats.json`: the whole set from mutmut's
`export-cicd-stats` file. Killed and timed-out mutants count as caught; mutants no test reaches
count as survivors. Exits 1 when fewer than `THRESHOLD` of the mutants are caught.

`python tests/mutation_score.py mutants/`: the same count from mutmut's per-file results
(`mutants/**/*.meta`), split into `profiles/cost/` and the resolver side (everything else
mutated), with the mutants not checked yet shown apart (a run stopped early, or functions
changed since). Exits 1 when either side's caught share of its checked mutants is under
`THRESHOLD` or any mutant is unchecked.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

THRESHOLD = 0.90

# mutmut 3.8's exit codes (mutmut/stats.py `status_by_exit_code`); any other code is "suspicious".
CAUGHT = {1, 3, 36, 24, -24, 152, 255}  # killed (1, 3) or timed out
SURVIVED = {0}
NO_TESTS = {5, 33}
UNCHECKED = {None}


def side_of(key: str) -> str:
    """`cost` for a mutant of `profiles/cost/`, else `resolver` (a key is `profiles.cost.x_f__mutmut_3`)."""
    return "cost" if key.startswith("profiles.cost.") else "resolver"


def tally(exit_codes: dict[str, int | None]) -> dict[str, Counter]:
    """Per side, how many mutants were caught, survived, reached no test, or are unchecked."""
    sides: dict[str, Counter] = {"cost": Counter(), "resolver": Counter()}
    for key, code in exit_codes.items():
        if code in CAUGHT:
            status = "caught"
        elif code in SURVIVED:
            status = "survived"
        elif code in NO_TESTS:
            status = "no tests"
        elif code in UNCHECKED:
            status = "unchecked"
        else:
            status = "suspicious"
        sides[side_of(key)][status] += 1
    return sides


def share(counts: Counter) -> float:
    """Caught over checked (every mutant but the unchecked ones); 0.0 when none was checked."""
    checked = sum(counts.values()) - counts["unchecked"]
    return counts["caught"] / checked if checked else 0.0


def _metas(folder: Path) -> dict[str, int | None]:
    codes: dict[str, int | None] = {}
    for meta in sorted(folder.glob("**/*.meta")):
        codes.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return codes


def by_side(folder: Path) -> int:
    sides = tally(_metas(folder))
    for name, counts in [*sides.items(), ("overall", sides["cost"] + sides["resolver"])]:
        checked = sum(counts.values()) - counts["unchecked"]
        print(
            f"{name}: {counts['caught']}/{checked} checked mutants caught = {share(counts):.1%} "
            f"(survived {counts['survived']}, no tests {counts['no tests']}, suspicious {counts['suspicious']}; "
            f"{counts['unchecked']} of {sum(counts.values())} not checked)"
        )
    short = any(share(c) < THRESHOLD or c["unchecked"] for c in sides.values())
    return 1 if short else 0


def main(path: str) -> int:
    if Path(path).is_dir():
        return by_side(Path(path))
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
