"""The NCCL environment of an AWS GPU node: what the node bootstrap writes
(`clouds.aws.cloud_init`) and what the benchmark kit runs with (`trainstack.bench.nccl_env`).

libfabric's EFA provider where the node has EFA interfaces; GPUDirect RDMA
(FI_EFA_USE_DEVICE_RDMA) where aws-ofi-nccl requires it, N1 (carried by `facts.aws`).
"""

from __future__ import annotations

from facts.aws import aws_network

# Exclude loopback and container bridges from NCCL's bootstrap sockets (NCCL `^` prefix list).
NCCL_SOCKET_IFNAME = "^lo,docker"


def nccl_env(efa: bool, gpudirect: bool) -> dict[str, str]:
    """Environment variables for NCCL on one node.

    Args:
        efa: the node has EFA interfaces; selects the libfabric EFA provider.
        gpudirect: EFA may access GPU memory directly on this type (N1).

    Returns:
        Variable name -> value, in a stable order.
    """
    env = {"NCCL_SOCKET_IFNAME": NCCL_SOCKET_IFNAME}
    if efa:
        env["FI_PROVIDER"] = "efa"
        if gpudirect:
            env["FI_EFA_USE_DEVICE_RDMA"] = "1"
    return env


def kit_environment(instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]]:
    """The kit's (variables, lines to source, notes): the bootstrap's variables for the type."""
    network = aws_network(instance_type)
    efa = rdma and network is not None and network.max_efa_interfaces > 0
    return nccl_env(efa, bool(network and network.gpudirect_rdma)), [], []
