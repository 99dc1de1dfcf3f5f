"""The torch wheel the bootstrap installs where the node image has no PyTorch (Azure, GCP).

Source (observed 2026-12-07): PyPI metadata of torch 2.9.1 (`pip install --dry-run --report`,
manylinux_2_28_x86_64 wheel): Requires-Dist `nvidia-nccl-cu12==2.27.5` and
`nvidia-cuda-runtime-cu12==12.8.90` on Linux x86_64, so the wheel brings NCCL 2.27.5 and
CUDA 12.8 (a driver of the 570 branch or a 525+ driver with CUDA minor-version compatibility).
"""

from __future__ import annotations

TORCH = "2.9.1"
REQUIREMENT = f"torch=={TORCH}"
NCCL = "2.27.5 (torch 2.9.1's nvidia-nccl-cu12 pin on PyPI)"
SOURCE = "PyPI metadata of torch 2.9.1, observed 2026-12-07"
