"""Hosts as Linux network namespaces on one bridge, for the elastic-run test (root only).

The bridge has no address in the root namespace and no route leads out, so no traffic
leaves the machine; every name carries a random suffix, so parallel runs do not collide.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
from dataclasses import dataclass


def unavailable() -> str | None:
    """Why namespaces cannot be made here (not root, no `ip netns`), or None."""
    if os.geteuid() != 0:
        return "the elastic-run test creates network namespaces: run it as root (CI does)"
    if shutil.which("ip") is None:
        return "the elastic-run test needs iproute2's `ip netns` (apt-get install iproute2)"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return f"`ip netns` is unavailable: {probe.stderr.strip()}"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@dataclass
class Host:
    """One namespace host: its namespace name, address and the processes started in it."""

    name: str
    netns: str
    address: str
    processes: list[subprocess.Popen]


class Network:
    """A bridge on 10.77.X.0/24 and the namespace hosts attached to it."""

    def __init__(self) -> None:
        self.tag = secrets.token_hex(3)
        self.bridge = f"tsb{self.tag}"
        self.hosts: list[Host] = []
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("link", "set", self.bridge, "up")

    def add_host(self, name: str) -> Host:
        index = len(self.hosts) + 1
        netns, veth = f"ts-{self.tag}-{index}", f"tsv{self.tag}{index}"
        host = Host(name, netns, f"10.77.0.{10 + index}", [])
        self.hosts.append(host)
        _ip("netns", "add", netns)
        _ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", netns)
        _ip("link", "set", veth, "master", self.bridge, "up")
        _ip("-n", netns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        _ip("-n", netns, "link", "set", "eth0", "up")
        _ip("-n", netns, "link", "set", "lo", "up")
        return host

    def start(self, host: Host, argv: list[str], env: dict[str, str], log_path: str) -> subprocess.Popen:
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                ["ip", "netns", "exec", host.netns, *argv],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        host.processes.append(process)
        return process

    def kill(self, host: Host) -> None:
        """SIGKILL every process in the host's namespace: a preempted node, gone at once."""
        pids = subprocess.run(
            ["ip", "netns", "pids", host.netns], capture_output=True, text=True, check=False
        ).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        for process in host.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def close(self) -> None:
        """Kill every process, delete namespaces, veths and the bridge (safe to call twice)."""
        for host in self.hosts:
            self.kill(host)
            subprocess.run(["ip", "netns", "del", host.netns], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True, check=False)
        self.hosts = []
