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


def test_the_test_install_compiles_the_projects_bytecode_before_the_suite(tmp_path):
    """After the installs, the project's modules and the rewritten test modules are compiled once
    (the suite's first run would compile them in every test process); before the stamp, so a
    later `make test` runs the suite only."""
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "test", "UV=", f"VENV={tmp_path}/v"], capture_output=True, text=True, check=True
    )
    lines = [line for line in done.stdout.splitlines() if not line.startswith("make")]
    compiled = next(i for i, line in enumerate(lines) if " -m compileall " in line)
    assert "install" in lines[compiled - 1] and lines[compiled + 1].startswith("touch ")
    assert f"{tmp_path}/v/bin/python -m pytest --collect-only -q" in lines[compiled]
    assert lines[-1] == f"{tmp_path}/v/bin/python -m pytest -n auto"
