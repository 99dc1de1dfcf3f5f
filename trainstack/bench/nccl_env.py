"""The NCCL environment the kit runs nccl-tests and training with, per cloud and type.

- AWS: the same variables the node bootstrap writes (`components.aws.cloud_init.nccl_env`:
  libfabric's EFA provider, GPUDirect RDMA where aws-ofi-nccl requires it, N1).
- Azure ND: the settings of Azure's own NCCL health check (Azure/azurehpc-health-checks,
  customTests azure_nccl_allreduce NHC script: NCCL_IB_PCI_RELAXED_ORDERING=1,
  CUDA_DEVICE_ORDER=PCI_BUS_ID, NCCL_SOCKET_IFNAME=eth0, and the topology file its conf
  names: /opt/microsoft/ndv4-topo.xml for ND A100 v4, ndv5-topo.xml for ND H100/H200 v5).
- GCP A3 Mega: GPUDirect-TCPXO's profile script, as Google's "Enable GPUDirect-TCPXO
  optimized NCCL communication" guide sources it (/var/lib/tcpxo/lib64/nccl-env-profile.sh).
  A3 High (GPUDirect-TCPX) needs its plugin's variables, which no source here lists: the kit
  says so instead of guessing.
"""

from __future__ import annotations

AZURE_TOPOLOGY = {
    "Standard_ND96asr_v4": "/opt/microsoft/ndv4-topo.xml",
    "Standard_ND96amsr_A100_v4": "/opt/microsoft/ndv4-topo.xml",
    "Standard_ND96isr_H100_v5": "/opt/microsoft/ndv5-topo.xml",
    "Standard_ND96isr_H200_v5": "/opt/microsoft/ndv5-topo.xml",
}
TCPXO_PROFILE = "/var/lib/tcpxo/lib64/nccl-env-profile.sh"


def nccl_environment(provider: str, instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]]:
    """Variables, shell lines to source first, and notes for the kit.

    Returns:
        (name -> value, lines such as `source FILE`, remarks printed with the kit).
    """
    if provider == "aws":
        from components.aws.cloud_init import nccl_env  # pure module, no Pulumi import
        from facts.aws import aws_network

        network = aws_network(instance_type)
        efa = rdma and network is not None and network.max_efa_interfaces > 0
        return nccl_env(efa, bool(network and network.gpudirect_rdma)), [], []
    if provider == "azure":
        env = {"NCCL_IB_PCI_RELAXED_ORDERING": "1", "CUDA_DEVICE_ORDER": "PCI_BUS_ID", "NCCL_SOCKET_IFNAME": "eth0"}
        if instance_type in AZURE_TOPOLOGY:
            env["NCCL_TOPO_FILE"] = AZURE_TOPOLOGY[instance_type]
        return env, [], []
    if provider == "gcp" and instance_type.startswith("a3-megagpu"):
        return {}, [f"source {TCPXO_PROFILE}"], []
    if provider == "gcp" and instance_type.startswith("a3-highgpu"):
        return (
            {},
            [],
            [
                "a3-highgpu-8g: set the GPUDirect-TCPX plugin's NCCL variables from Google's A3 High "
                "guide before running (the kit does not know them)"
            ],
        )
    return {"NCCL_SOCKET_IFNAME": "^lo,docker"}, [], []
