"""The NCCL environment the benchmark kit runs with on GCP A3 nodes (`trainstack.bench.nccl_env`).

A3 Mega: GPUDirect-TCPXO's profile script, as Google's "Enable GPUDirect-TCPXO optimized NCCL
communication" guide sources it (/var/lib/tcpxo/lib64/nccl-env-profile.sh). A3 High
(GPUDirect-TCPX) needs its plugin's variables, which no source here lists: the kit says so
instead of guessing. Other machine types get the kit's default.
"""

from __future__ import annotations

TCPXO_PROFILE = "/var/lib/tcpxo/lib64/nccl-env-profile.sh"


def kit_environment(instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]] | None:
    """The kit's (variables, lines to source, notes) on an A3 machine type; None for others."""
    if instance_type.startswith("a3-megagpu"):
        return {}, [f"source {TCPXO_PROFILE}"], []
    if instance_type.startswith("a3-highgpu"):
        note = (
            "a3-highgpu-8g: set the GPUDirect-TCPX plugin's NCCL variables from Google's A3 High "
            "guide before running (the kit does not know them)"
        )
        return {}, [], [note]
    return None
