"""The AWS job runtime: the PyTorch Deep Learning AMI, whose interpreter the node units call.

Source (observed 2026-12-07): AWS DLAMI developer guide, release notes "Deep Learning OSS
Nvidia Driver AMI GPU PyTorch 2.9 (Ubuntu 24.04) 20260317"
(https://docs.aws.amazon.com/dlami/latest/devguide/aws-deep-learning-ami-gpupt29oss-ul2404-2026-03-20.html),
"Major package versions": framework_version 2.9, python_location /opt/pytorch/bin/python,
compute_architecture x86_64, efa_version 1.44.0, ofi_nccl_version 1.17.1, nvidia_driver
580.126.09, supported_ec2_instances G4dn, G5, G6, Gr6, G6e, P4, P4de, P5, P5e, P5en, P6-B200.
The notes give no NCCL version: torch's own (the pip wheel's bundled NCCL) is used, with the
image's aws-ofi-nccl plugin over EFA. The Base DLAMI used before lists `/usr/bin/python3` and no
framework, so nothing on it imports torch.

The image is pinned by its full name (`AMI_NAME`, with the release date), looked up with
deprecated images included (DLAMIs are deprecated after later releases), so every node,
replacement and head runs the image these notes describe.
"""

from __future__ import annotations

from clouds.aws.efa import efa_interface_count
from clouds.aws.fsx import client_transport
from clouds.contract import ClusterConfig
from clouds.job_runtime import JobRuntime, NcclTests

# The release notes' "Major package versions" this runtime relies on (see the module docstring).
IMAGE_FACTS = {
    "name": "Deep Learning OSS Nvidia Driver AMI GPU PyTorch 2.9 (Ubuntu 24.04) 20260317",
    "compute_architecture": "x86_64",
    "framework_version": "2.9",
    "python_location": "/opt/pytorch/bin/python",
    "efa_version": "1.44.0",
    "ofi_nccl_version": "1.17.1",
    "nvidia_driver": "580.126.09",
    "source": "https://docs.aws.amazon.com/dlami/latest/devguide/aws-deep-learning-ami-gpupt29oss-ul2404-2026-03-20.html",
    "observed": "2026-12-07",
}
AMI_NAME = IMAGE_FACTS["name"]
PYTHON = IMAGE_FACTS["python_location"]
# The release notes' supported_ec2_instances, as instance-type prefixes.
SUPPORTED_FAMILIES = ("g4dn.", "g5.", "g6.", "gr6.", "g6e.", "p4d.", "p4de.", "p5.", "p5e.", "p5en.", "p6-b200.")
RELEASE_NOTES = "AWS DLAMI release notes, PyTorch 2.9 (Ubuntu 24.04) 20260317, observed 2026-12-07"


def plugin(cluster: ClusterConfig) -> str:
    """The image's aws-ofi-nccl over EFA on an EFA layout, else none."""
    if efa_interface_count(cluster.instance_type, cluster.interconnect) > 0:
        return (
            f"aws-ofi-nccl {IMAGE_FACTS['ofi_nccl_version']} over EFA (installer {IMAGE_FACTS['efa_version']}), "
            "from the image"
        )
    return "none (TCP sockets)"


def unsupported(instance_type: str) -> str | None:
    """Why the image does not run on `instance_type` (not in its notes' list), or None."""
    if instance_type.startswith(SUPPORTED_FAMILIES):
        return None
    return (
        f"job: the node image ({AMI_NAME}) lists G4dn, G5, G6, Gr6, G6e, P4, P4de, P5, P5e, P5en and "
        f"P6-B200 and not {instance_type}; choose one of those types, or remove job and bring your own image"
    )


# nccl-tests on a DLAMI: "Using EFA on the DLAMI" (DLAMI developer guide, tutorial-efa-using,
# observed 2026-12-07) runs NVIDIA's tests from `/usr/local/cuda-xx.x/efa/test-cuda-xx.x/` with
# the EFA installer's Open MPI, `/opt/amazon/openmpi/bin/mpirun` (its full path, as the guide
# asks). The guide names the Base DLAMI's layout; that the PyTorch DLAMI keeps it is unverified,
# so `bench run` builds the tests where the folder is missing.
NCCL_TESTS = NcclTests(
    dirs=("/usr/local/cuda-*/efa/test-cuda-*",),
    mpi_setup='export PATH="/opt/amazon/openmpi/bin:$PATH" LD_LIBRARY_PATH="/opt/amazon/openmpi/lib:/opt/amazon/openmpi/lib64:/opt/amazon/efa/lib:/opt/amazon/efa/lib64:${LD_LIBRARY_PATH:-}"',
    source="AWS DLAMI developer guide, Using EFA on the DLAMI, observed 2026-12-07",
)

RUNTIME = JobRuntime(
    python=PYTHON,
    torch=IMAGE_FACTS["framework_version"],
    nccl="bundled with torch (version not in the release notes)",
    plugin=plugin,
    image=AMI_NAME,
    source=RELEASE_NOTES,
    storage=lambda cluster: client_transport(cluster.file_system is not None),
    nccl_tests=NCCL_TESTS,
)
