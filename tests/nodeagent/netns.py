"""Hosts as Linux network namespaces on one bridge, for the elastic-run test (root only).

The bridge has no address in the root namespace and no route leads out, so no traffic
leaves the machine; every name carries a random suffix, so parallel runs do not collide.
Each network records its owner's PID in `OWNERS`; a new network first removes the networks
whose owner died without closing them (a test process killed outright).
Each host's `eth0` has a fixed address and MAC; `replace` gives a new namespace (a new VM)
the same address and MAC, as a reserved IP / ENI / NIC moves to a cloud's replacement VM.
A unit started with `restart_seconds` is restarted on failure, as the node's systemd unit
does (`Restart=on-failure`: after a non-zero status or a signal, except the statuses in
`RestartPreventExitStatus=`).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

# The metadata service's address on every cloud: a route to it leaves by eth0, so the head
# node's agent announces eth0's address (`nodeagent.store.primary_address`), as on a VM.
METADATA_ADDRESS = "169.254.169.254"
OWNERS = Path("/run/trainstack-netns")  # one file per network: its tag, holding the owner's PID


def unavailable() -> str | None:
    """Why namespaces cannot be made here (not root, no `ip netns`, no right to create a
    namespace or a bridge), or None; the probe creates both and deletes them again."""
    if os.geteuid() != 0:
        return "the elastic-run test creates network namespaces: run it as root (CI does)"
    if shutil.which("ip") is None:
        return "the elastic-run test needs iproute2's `ip netns` (apt-get install iproute2)"
    probe = f"tsp{secrets.token_hex(3)}"
    for create, delete in (
        (["netns", "add", probe], ["netns", "del", probe]),
        (["link", "add", probe, "type", "bridge"], ["link", "del", probe]),
    ):
        made = subprocess.run(["ip", *create], capture_output=True, text=True, check=False)
        subprocess.run(["ip", *delete], capture_output=True, check=False)
        if made.returncode != 0:
            return f"this machine cannot create network namespaces (`ip {' '.join(create[:2])}`: {made.stderr.strip()})"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@dataclass
class Unit:
    """One unit started on a host: its processes, the first and (after restarts) the later ones."""

    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def first(self) -> subprocess.Popen:
        return self.processes[0]

    @property
    def last(self) -> subprocess.Popen:
        return self.processes[-1]


@dataclass
class Host:
    """One namespace host: its namespace, address, MAC, the units started in it, and `gone`,
    set when the host is killed (its units are then not restarted)."""

    name: str
    netns: str
    address: str
    mac: str
    units: list[Unit] = field(default_factory=list)
    gone: threading.Event = field(default_factory=threading.Event)


class Network:
    """A bridge on 10.77.0.0/24 and the namespace hosts attached to it."""

    def __init__(self) -> None:
        reap_orphans()
        self.tag = secrets.token_hex(3)
        self.bridge = f"tsb{self.tag}"
        self.hosts: list[Host] = []
        self._lock = threading.Lock()
        OWNERS.mkdir(parents=True, exist_ok=True)
        (OWNERS / self.tag).write_text(str(os.getpid()))
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("link", "set", self.bridge, "up")

    def add_host(self, name: str, address: str | None = None, mac: str | None = None) -> Host:
        """A new namespace on the bridge; `address` and `mac` default to fresh ones."""
        index = len(self.hosts) + 1
        host = Host(
            name, f"ts-{self.tag}-{index}", address or f"10.77.0.{10 + index}", mac or f"02:77:00:00:00:{index:02x}"
        )
        veth = f"tsv{self.tag}{index}"
        self.hosts.append(host)
        _ip("netns", "add", host.netns)
        _ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "address", host.mac, "netns", host.netns)
        _ip("link", "set", veth, "master", self.bridge, "up")
        _ip("-n", host.netns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        _ip("-n", host.netns, "link", "set", "eth0", "up")
        _ip("-n", host.netns, "link", "set", "lo", "up")
        _ip("-n", host.netns, "route", "add", METADATA_ADDRESS, "dev", "eth0")
        return host

    def host(self, name: str) -> Host:
        """The newest host called `name`."""
        return next(h for h in reversed(self.hosts) if h.name == name)

    def replace(self, host: Host, name: str) -> Host:
        """Kill `host` and delete its namespace (the VM is gone); a new namespace takes its
        address and MAC (the reserved IP, ENI or NIC the cloud moves to the replacement VM)."""
        self.kill(host)
        subprocess.run(["ip", "netns", "del", host.netns], capture_output=True, check=False)
        return self.add_host(name, address=host.address, mac=host.mac)

    def start(
        self,
        host: Host,
        argv: list[str],
        env: dict[str, str],
        log_path: str,
        restart_seconds: float | None = None,
        prevent: frozenset[int] = frozenset(),
    ) -> Unit:
        """Run `argv` in the host's namespace; with `restart_seconds`, start it again that long
        after it exits with a failure (a non-zero status or a signal, other than the statuses in
        `prevent`), until the host is gone."""
        unit = Unit()
        host.units.append(unit)
        self._spawn(host, unit, argv, env, log_path)
        if restart_seconds is not None:
            how = (argv, env, log_path, restart_seconds, prevent)
            threading.Thread(target=self._supervise, args=(host, unit, *how), daemon=True).start()
        return unit

    def _spawn(self, host: Host, unit: Unit, argv: list[str], env: dict[str, str], log_path: str) -> None:
        with self._lock, open(log_path, "ab") as log:
            if host.gone.is_set():
                raise ProcessLookupError(f"host {host.name} is gone")
            unit.processes.append(
                subprocess.Popen(
                    ["ip", "netns", "exec", host.netns, *argv],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    def _supervise(self, host: Host, unit: Unit, argv, env, log_path: str, restart_seconds: float, prevent) -> None:
        while unit.last.wait() not in {0, *prevent} and not host.gone.wait(restart_seconds):
            try:
                self._spawn(host, unit, argv, env, log_path)
            except ProcessLookupError:
                return

    def kill(self, host: Host) -> None:
        """SIGKILL every process in the host's namespace: a preempted node, gone at once."""
        with self._lock:
            host.gone.set()
            processes = [p for unit in host.units for p in unit.processes]
            for process in processes:
                if process.poll() is None:
                    process.kill()
        pids = subprocess.run(
            ["ip", "netns", "pids", host.netns], capture_output=True, text=True, check=False
        ).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        for process in processes:
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
        (OWNERS / self.tag).unlink(missing_ok=True)
        self.hosts = []


def reap_orphans() -> list[str]:
    """Remove the networks whose owner process is gone: kill their processes, delete their
    namespaces and bridge. Returns their tags."""
    reaped = []
    for owner in OWNERS.glob("*") if OWNERS.is_dir() else []:
        try:
            os.kill(int(owner.read_text()), 0)
            continue  # its owner still runs
        except ProcessLookupError:
            pass
        except (OSError, ValueError):
            continue
        listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False).stdout
        for netns in [line.split()[0] for line in listing.splitlines() if line.startswith(f"ts-{owner.name}-")]:
            pids = subprocess.run(["ip", "netns", "pids", netns], capture_output=True, text=True, check=False)
            for pid in pids.stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            subprocess.run(["ip", "netns", "del", netns], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", f"tsb{owner.name}"], capture_output=True, check=False)
        owner.unlink(missing_ok=True)
        reaped.append(owner.name)
    return reaped
