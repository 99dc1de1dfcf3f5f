"""Run code in a fresh interpreter at the project root, to see what it imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loaded_after(code: str) -> set[str]:
    """The top-level names of every module imported once `code` ran in a fresh interpreter
    (cwd the project root).

    Raises:
        subprocess.CalledProcessError: `code` failed (an assertion in it, an import error).
    """
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted({{name.split('.')[0] for name in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))
