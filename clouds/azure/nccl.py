"""The NCCL environment the benchmark kit runs with on Azure ND nodes (`trainstack.bench.nccl_env`).

The settings of Azure's own NCCL health check (Azure/azurehpc-health-checks, customTests
azure_nccl_allreduce NHC script: NCCL_IB_PCI_RELAXED_ORDERING=1, CUDA_DEVICE_ORDER=PCI_BUS_ID,
NCCL_SOCKET_IFNAME=eth0, and the topology file its conf names: /opt/microsoft/ndv4-topo.xml
for ND A100 v4, ndv5-topo.xml for ND H100/H200 v5).
"""

from __future__ import annotations

AZURE_TOPOLOGY = {
    "Standard_ND96asr_v4": "/opt/microsoft/ndv4-topo.xml",
    "Standard_ND96amsr_A100_v4": "/opt/microsoft/ndv4-topo.xml",
    "Standard_ND96isr_H100_v5": "/opt/microsoft/ndv5-topo.xml",
    "Standard_ND96isr_H200_v5": "/opt/microsoft/ndv5-topo.xml",
}


def kit_environment(instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]]:
    """The kit's (variables, lines to source, notes) on an Azure VM size."""
    env = {"NCCL_IB_PCI_RELAXED_ORDERING": "1", "CUDA_DEVICE_ORDER": "PCI_BUS_ID", "NCCL_SOCKET_IFNAME": "eth0"}
    if instance_type in AZURE_TOPOLOGY:
        env["NCCL_TOPO_FILE"] = AZURE_TOPOLOGY[instance_type]
    return env, [], []
