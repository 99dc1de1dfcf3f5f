"""The NCCL environment the kit runs nccl-tests and training with, per cloud and type.

Each cloud's rule is its `Cloud.nccl` (`clouds/<cloud>/nccl.py`, which cites its sources: on
AWS the same variables the node bootstrap writes, on Azure ND the settings of Azure's NCCL
health check, on GCP A3 the GPUDirect-TCPXO profile). A cloud without one, or a type its rule
does not cover, gets `DEFAULT`: NCCL's bootstrap sockets off loopback and container bridges.
"""

from __future__ import annotations

from clouds.base import load
from clouds.registry import CLOUDS

DEFAULT_SOCKET_IFNAME = "^lo,docker"


def nccl_environment(provider: str, instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]]:
    """Variables, shell lines to source first, and notes for the kit.

    Returns:
        (name -> value, lines such as `source FILE`, remarks printed with the kit).
    """
    found = CLOUDS.get(provider)
    rule = load(found.nccl) if found is not None and found.nccl else None
    answer = rule(instance_type, rdma) if rule is not None else None
    if answer is not None:
        return answer
    return {"NCCL_SOCKET_IFNAME": DEFAULT_SOCKET_IFNAME}, [], []
