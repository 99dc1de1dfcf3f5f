"""A replaced head node is found again: it announces its address on the shared file system
(`nodeagent.job.announce`), and a worker's agent waits for the store at the address announced
last before it starts torchrun (`launcher.wait_for_rendezvous`); real loopback sockets."""

from __future__ import annotations

import dataclasses
import socket

import pytest

from nodeagent.job import NodeJob, announce, rendezvous_host
from nodeagent.launcher import torchrun_argv, wait_for_rendezvous
from nodeagent.ship import install_script
from nodeagent.store import announce_self


def _listener() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _job(tmp_path, port: int, host: str = "127.0.0.9") -> NodeJob:
    return NodeJob(("t.py",), host, "j", rdzv_port=port, rdzv_file=str(tmp_path / "rendezvous" / "train"))


def test_the_announced_address_wins_over_the_configured_one(tmp_path):
    job = _job(tmp_path, 29400, host="10.0.0.10")
    assert rendezvous_host(job) == "10.0.0.10"  # nothing announced yet
    announce(job.rdzv_file, "10.0.0.77")
    assert rendezvous_host(job) == "10.0.0.77"
    moved = dataclasses.replace(job, rdzv_host=rendezvous_host(job))
    assert "--rdzv-endpoint=10.0.0.77:29400" in torchrun_argv(moved, "10.0.0.5")
    (tmp_path / "rendezvous" / "train").write_text("not an address; rm -rf /\n")
    assert rendezvous_host(job) == "10.0.0.10"  # garbage is ignored
    with pytest.raises(ValueError, match="is not an address"):
        announce(job.rdzv_file, "10.0.0.1 && reboot")


def test_a_worker_waits_for_the_replacement_head_at_its_new_address(tmp_path):
    new_head = _listener()
    port = new_head.getsockname()[1]
    job = _job(tmp_path, port)
    announce(job.rdzv_file, "127.0.0.9")  # the old head: gone, nothing listens there
    tries = []

    def sleep(seconds):  # while the worker waits, the replacement boots and announces itself
        tries.append(seconds)
        announce(job.rdzv_file, "127.0.0.1")

    try:
        assert wait_for_rendezvous(job, deadline_seconds=60, pause=0.01, sleep=sleep) == "127.0.0.1"
    finally:
        new_head.close()
    assert tries == [0.01]


def test_after_the_deadline_the_last_address_is_used(tmp_path):
    job = _job(tmp_path, _free_port(), host="127.0.0.1")
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds

    assert wait_for_rendezvous(job, deadline_seconds=3, pause=1, sleep=sleep, clock=lambda: now[0]) == "127.0.0.1"
    assert now[0] == 3  # three pauses, then torchrun reports the failure itself


def test_the_head_unit_announces_itself():
    job = {"python": "/usr/bin/python3", "rdzv_port": 29400, "rdzv_file": "/fsx/trainstack/rendezvous/train"}
    script = install_script("head", job, "/fsx")
    assert "ExecStart=/usr/bin/python3 -m nodeagent store 29400 /fsx/trainstack/rendezvous/train" in script


def test_the_head_announces_the_address_it_routes_from(tmp_path):
    assert announce_self(tmp_path / "r" / "train", probe="127.0.0.1") == "127.0.0.1"
    assert (tmp_path / "r" / "train").read_text() == "127.0.0.1\n"
