"""The NCCL environment the benchmark kit runs with on GCP A3 / A4 nodes (`trainstack.bench.nccl_env`).

A3 High (GPUDirect-TCPX), A3 Mega (GPUDirect-TCPXO), A3 Ultra and A4 (GPUDirect RDMA, gIB):
the variables the node bootstrap writes for the plugin it installs (`clouds.gcp.gpudirect`,
which cites its sources); after sourcing the plugin's profile script where it has one, as
Google's "Enable GPUDirect-TCPXO optimized NCCL communication" guide does
(/var/lib/tcpxo/lib64/nccl-env-profile.sh) and its gIB examples do (set_nccl_env.sh). Other
machine types, and nodes without the GPU NICs (`rdma` False), get the kit's default.
"""

from __future__ import annotations

from clouds.gcp.gpudirect import gpudirect_for
from clouds.gcp.nics import nic_layout


def kit_environment(instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]] | None:
    """The kit's (variables, lines to source, notes) on a node with a GPUDirect plugin; None for others."""
    gd = gpudirect_for(instance_type, nic_layout(instance_type, "rdma" if rdma else "none").gpudirect)
    if gd is None:
        return None
    sources = [f"NCCL_LIB_DIR={gd.plugin_dir} source {gd.env_profile}"] if gd.env_profile else []
    return dict(gd.env), sources, []
