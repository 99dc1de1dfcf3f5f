"""The Azure job runtime: a pinned torch wheel the bootstrap installs on the Ubuntu HPC image.

The HPC image (`clouds.azure.facts.HPC_IMAGE`) ships the NVIDIA driver, Mellanox OFED, NCCL
with the RDMA SHARP plugin and the ND topology files, but no PyTorch (Azure/azhpc-images
`ubuntu/ubuntu-22.x/ubuntu-22.04-hpc/README.md` lists no framework). So the bootstrap installs
torch (`clouds.torch_wheel`) into a venv (`clouds.job_runtime.install_lines`); NCCL's own IB
transport runs over the image's OFED verbs.
"""

from __future__ import annotations

from clouds import torch_wheel
from clouds.azure.facts import HPC_IMAGE, HPC_IMAGE_FACTS, infiniband_size
from clouds.contract import ClusterConfig
from clouds.job_runtime import VENV, JobRuntime, NcclTests


def plugin(cluster: ClusterConfig) -> str:
    """The image's InfiniBand stack on an IB size with `interconnect: rdma`, else none."""
    if cluster.interconnect == "rdma" and infiniband_size(cluster.instance_type) is not None:
        return "InfiniBand verbs (the HPC image's Mellanox OFED; NCCL's IB transport)"
    return "none (TCP sockets)"


# The HPC image builds nccl-tests with HPC-X's Open MPI into /opt/nccl-tests/build (azhpc-images
# components/install_nccl.sh, `module load mpi/hpcx`; `HPC_IMAGE_FACTS`).
NCCL_TESTS = NcclTests(
    dirs=(HPC_IMAGE_FACTS["nccl_tests"],),
    mpi_setup="source /etc/profile.d/modules.sh && module load mpi/hpcx",
    source=HPC_IMAGE_FACTS["source"],
)

RUNTIME = JobRuntime(
    python=f"{VENV}/bin/python",
    torch=torch_wheel.TORCH,
    nccl=torch_wheel.NCCL,
    plugin=plugin,
    image=":".join(HPC_IMAGE[k] for k in ("publisher", "offer", "sku", "version")),
    source=torch_wheel.SOURCE,
    requirement=torch_wheel.REQUIREMENT,
    nccl_tests=NCCL_TESTS,
)
