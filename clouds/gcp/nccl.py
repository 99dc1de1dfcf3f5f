"""The NCCL environment the benchmark kit runs with on GCP A3 nodes (`trainstack.bench.nccl_env`).

A3 High (GPUDirect-TCPX) and A3 Mega (GPUDirect-TCPXO): the variables the node bootstrap
writes for the plugin it installs (`clouds.gcp.gpudirect`, which cites its sources); on A3 Mega
after sourcing the plugin's profile script, as Google's "Enable GPUDirect-TCPXO optimized NCCL
communication" guide does (/var/lib/tcpxo/lib64/nccl-env-profile.sh). Other machine types,
and A3 nodes without the GPU NICs (`rdma` False), get the kit's default.
"""

from __future__ import annotations

from clouds.gcp.gpudirect import gpudirect_for
from clouds.gcp.nics import nic_layout


def kit_environment(instance_type: str, rdma: bool) -> tuple[dict[str, str], list[str], list[str]] | None:
    """The kit's (variables, lines to source, notes) on an A3 High / Mega node; None for others."""
    gd = gpudirect_for(nic_layout(instance_type, "rdma" if rdma else "none").gpudirect)
    if gd is None:
        return None
    sources = [f"NCCL_LIB_DIR={gd.plugin_dir} source {gd.env_profile}"] if gd.env_profile else []
    return dict(gd.env), sources, []
