"""The GCP job runtime: a pinned torch wheel the bootstrap installs on the Deep Learning VM image.

The node image (`clouds.gcp.machine.IMAGE`, a `common-cu128` Deep Learning VM image) carries
the driver and CUDA but is not shown to carry PyTorch, so the bootstrap installs torch
(`clouds.torch_wheel`) into a venv (`clouds.job_runtime.install_lines`). On A3 / A4 GPUDirect
layouts the plugin installer (`clouds.gcp.gpudirect`) puts its own NCCL and plugin in a
library folder the job's `LD_LIBRARY_PATH` names.
"""

from __future__ import annotations

from clouds import torch_wheel
from clouds.contract import ClusterConfig
from clouds.gcp.gpudirect import gpudirect_for
from clouds.gcp.machine import IMAGE
from clouds.gcp.nics import nic_layout
from clouds.job_runtime import VENV, JobRuntime


def plugin(cluster: ClusterConfig) -> str:
    """The GPUDirect flavour's NCCL plugin (TCPX, TCPXO, gIB) and its image, else none."""
    gd = gpudirect_for(cluster.instance_type, nic_layout(cluster.instance_type, cluster.interconnect).gpudirect)
    if gd is None:
        return "none (TCP sockets)"
    folder = gd.env.get("LD_LIBRARY_PATH", gd.plugin_dir)
    return f"{gd.name} ({gd.plugin_image.rsplit('/', 1)[-1]}; its NCCL in {folder} comes first on LD_LIBRARY_PATH)"


RUNTIME = JobRuntime(
    python=f"{VENV}/bin/python",
    torch=torch_wheel.TORCH,
    nccl=torch_wheel.NCCL,
    plugin=plugin,
    image=IMAGE.rsplit("/", 1)[-1],
    source=torch_wheel.SOURCE,
    requirement=torch_wheel.REQUIREMENT,
)
