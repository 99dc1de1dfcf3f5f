"""Which stacks the benchmark kit can measure: its tools are NVIDIA's.

The kit runs nccl-tests (NCCL, over NVIDIA GPUs), `dcgmi diag` (DCGM) and an NVML sampler
(`kit.py`); none of them sees another vendor's accelerator. A stack of TPU slices, AWS
Trainium/Inferentia (Neuron), Intel Gaudi, Huawei Ascend, AMD Radeon or an FPGA gets no kit:
`kit_refusal` says so in one line instead of writing a GPU script for it.
"""

from __future__ import annotations

# Accelerator-name prefix (as the catalog and stacks spell it) -> what it is and what measures it.
OTHER_VENDORS: dict[str, str] = {
    "tpu-": "a Google TPU slice (hosts of TPU chips, no GPUs); measure it with the TPU's own tools (XLA profiler)",
    "Trainium": "AWS Trainium (Neuron); measure it with the Neuron SDK's tools (nccom-test, neuron-monitor)",
    "Inferentia": "AWS Inferentia (Neuron); measure it with the Neuron SDK's tools (nccom-test, neuron-monitor)",
    "Gaudi": "Intel Gaudi; measure it with Intel's HCCL demo (hccl_demo) and hl-smi",
    "Ascend": "Huawei Ascend; measure it with Huawei's HCCL tests (hccl_test) and npu-smi",
    "Radeon": "AMD Radeon; measure it with ROCm's rccl-tests and rocm-smi",
    "Virtex": "a Xilinx FPGA, not a training accelerator the kit knows",
}


def kit_refusal(stack: str, accelerator: str) -> str | None:
    """One line refusing a kit for `accelerator`, or None when the kit fits (an NVIDIA GPU).

    Args:
        stack: the stack's name, for the message.
        accelerator: the stack's `accelerator` (`A100-80GB`, `tpu-v5p`, `Trainium2`).
    """
    for prefix, what in OTHER_VENDORS.items():
        if accelerator.startswith(prefix):
            return (
                f"bench: the kit measures NVIDIA GPUs (nccl-tests, DCGM, NVML); stack {stack}'s accelerator "
                f"{accelerator} is {what}"
            )
    return None
