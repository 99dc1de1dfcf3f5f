"""Planning a Huawei stack prints nothing the user cannot act on."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_importing_the_provider_prints_no_pkg_resources_warning():
    # pulumi_huaweicloud imports the deprecated pkg_resources; `-W default` shows every warning once.
    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", "import components.huaweicloud.network"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pkg_resources" not in done.stderr
