"""The elastic run's hosts: a replaced host keeps its address and MAC, a unit restarts as its
systemd unit says, and nothing is left behind, even by a test process killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.nodeagent import netns

UNAVAILABLE = netns.unavailable()
# Run by the same xdist worker as the elastic run, never beside it (`ONE_WORKER` in tests/conftest.py):
# a new `netns.Network` reaps the networks of killed owners, which the killed child's below must
# keep until the test has seen them.
pytestmark = pytest.mark.skipif(UNAVAILABLE is not None, reason=str(UNAVAILABLE))
REPO = Path(__file__).resolve().parents[2]


def _leftovers(tag: str) -> list[str]:
    names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    links = subprocess.run(["ip", "-br", "link"], capture_output=True, text=True, check=True).stdout
    return [w for w in (names + links).split() if w.startswith((f"ts-{tag}-", f"tsb{tag}", f"tsv{tag}"))]


def _link(host: netns.Host) -> str:
    return (
        subprocess.run(
            ["ip", "-n", host.netns, "-br", "addr", "show", "eth0"], capture_output=True, text=True, check=True
        ).stdout
        + subprocess.run(
            ["ip", "-n", host.netns, "-br", "link", "show", "eth0"], capture_output=True, text=True, check=True
        ).stdout
    )


def test_a_replaced_host_keeps_its_address_and_mac_and_units_restart_as_the_unit_says(tmp_path):
    network = netns.Network()
    try:
        head = network.add_host("head")
        replaced = network.replace(head, "head-2")
        assert (replaced.address, replaced.mac) == (head.address, head.mac) == ("10.77.0.11", "02:77:00:00:00:01")
        assert replaced.netns != head.netns and "10.77.0.11/24" in _link(replaced) and head.mac in _link(replaced)
        counter = tmp_path / "runs"
        # exits 3 twice (restarted), then 75, which RestartPreventExitStatus stops
        script = f"import pathlib; p = pathlib.Path({str(counter)!r}); p.write_text(p.read_text() + 'x') if p.exists() else p.write_text('x'); raise SystemExit(75 if len(p.read_text()) == 3 else 3)"
        env = {"PATH": os.environ["PATH"]}
        unit = network.start(
            replaced, [sys.executable, "-c", script], env, str(tmp_path / "log"), 0.01, frozenset({75})
        )
        deadline = time.monotonic() + 30
        while (len(unit.processes) < 3 or unit.last.poll() is None) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)  # a fourth start would come now
        assert [p.returncode for p in unit.processes] == [3, 3, 75] and counter.read_text() == "xxx"
    finally:
        network.close()
    assert _leftovers(network.tag) == []


def test_the_networks_of_a_killed_test_process_are_removed():
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tests.nodeagent import netns; n = netns.Network(); n.add_host('a'); "
            "import os; n.start(n.hosts[0], ['sleep', '60'], dict(os.environ), '/dev/null'); "
            "print(n.tag, flush=True); input()",
        ],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    tag = child.stdout.readline().strip()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert _leftovers(tag) and (netns.OWNERS / tag).exists()  # the killed process left them
    assert tag in netns.reap_orphans()
    assert _leftovers(tag) == [] and not (netns.OWNERS / tag).exists()
