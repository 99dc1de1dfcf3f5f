"""The README's two commands install with uv when it is on PATH and pip otherwise, and PyTorch
always by pip at the [torch] extra's pin (uv does not read pip's configuration and would fetch
a CUDA build). Read from `make -n` (the commands make would run, none run)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="the README's commands need make")


def planned(target: str, uv: str, venv: Path) -> list[str]:
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"UV={uv}", f"VENV={venv}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in done.stdout.splitlines() if " install " in line]


def torch_pin() -> str:
    return re.search(r'"(torch==[^"]+)"', (ROOT / "pyproject.toml").read_text()).group(1)


def test_with_uv_the_project_installs_with_uv_and_torch_with_pip_first(tmp_path):
    lines = planned("test", "/opt/bin/uv", tmp_path / "v")
    assert lines[-2] == f"{tmp_path}/v/bin/pip install --quiet '{torch_pin()}'"
    assert lines[-1].startswith(
        f"/opt/bin/uv pip install --quiet --compile-bytecode --python {tmp_path}/v/bin/python -e '.[all,test,torch]'"
    )
    demo = planned("demo", "/opt/bin/uv", tmp_path / "v")
    assert demo[-1].startswith("/opt/bin/uv pip install") and "'.[aws]'" in demo[-1]


def test_without_uv_pip_installs_everything(tmp_path):
    lines = planned("test", "", tmp_path / "v")
    assert lines and all(line.split()[0] == f"{tmp_path}/v/bin/pip" for line in lines)
    assert lines[-1].startswith(f"{tmp_path}/v/bin/pip install --quiet -e '.[all,test,torch]'")
