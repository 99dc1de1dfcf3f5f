"""Per-node VM settings as plain data: image, disk, scheduling, GPUs, metadata, scopes.

Choices and their sources (none of these figures is in shared/reference-facts):
- Image: the Deep Learning VM family `common-cu128-ubuntu-2204-nvidia-570` in project
  `deeplearning-platform-release` (CUDA 12.8, NVIDIA 570 driver preinstalled). The family
  name was checked only against public gcloud usage found in the code index, not against
  Google's image list: a default that users may change (`IMAGE`).
- Boot disk: 200 GB (a choice, as on AWS), encrypted at rest with Google-managed keys,
  which Compute Engine applies to every disk when no customer key is given. A3 Ultra and
  A4 take Hyperdisk only (cluster-toolkit a3ultra-vm.yaml uses hyperdisk-balanced), so they
  get `hyperdisk-balanced`; other types `pd-balanced`.
- Shielded VM: vTPM and integrity monitoring on; Secure Boot off, because the NVIDIA
  driver and GPUDirect DKMS modules built on the node are not signed.
- Scheduling: GPUs cannot live-migrate, so `on_host_maintenance` is TERMINATE. A lone spot
  VM stops (STOP) on preemption, so the instance Pulumi manages keeps existing; the GPU node
  group's template deletes them instead (`group.group_scheduling`), so the group recreates them.
- Access: no external IP; OS Login (`enable-oslogin`) with IAP TCP forwarding or a
  bastion listed in `ssh_cidrs`. Scopes allow only log and metric writes and reading
  Cloud Storage.
"""

from __future__ import annotations

from typing import Any

IMAGE = "projects/deeplearning-platform-release/global/images/family/common-cu128-ubuntu-2204-nvidia-570"
BOOT_DISK_GB = 200
SCOPES = (
    "https://www.googleapis.com/auth/logging.write",
    "https://www.googleapis.com/auth/monitoring.write",
    "https://www.googleapis.com/auth/devstorage.read_only",
)
# Secret Manager's only OAuth scope (Secret Manager REST reference, "Authorization scopes"): a
# worker that reads the job's secrets needs it; IAM still limits the account to its grants.
CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform"


def node_scopes(needs_secrets: bool) -> tuple[str, ...]:
    """A worker's OAuth scopes: `SCOPES`, plus `CLOUD_PLATFORM` when its job reads secrets."""
    return (*SCOPES, CLOUD_PLATFORM) if needs_secrets else SCOPES


METADATA = {"enable-oslogin": "TRUE", "install-nvidia-driver": "True"}
SHIELDED = {"enable_secure_boot": False, "enable_vtpm": True, "enable_integrity_monitoring": True}
# Series that come with their GPUs attached (catalog README "GCP pricing": a2, a3, g2, a4).
ACCELERATOR_OPTIMIZED = ("a2-", "a3-", "a4-", "a4x-", "g2-", "g4-")
HYPERDISK_ONLY = ("a3-ultragpu-", "a4-")
# Catalog accelerator name -> Compute Engine accelerator type on N1 (T4, V100, P100, P4
# attach to N1, catalog README; the `nvidia-tesla-*` type names are Compute Engine's).
N1_ACCELERATORS = {
    "T4": "nvidia-tesla-t4",
    "V100": "nvidia-tesla-v100",
    "P100": "nvidia-tesla-p100",
    "P4": "nvidia-tesla-p4",
}


def is_accelerator_optimized(machine_type: str) -> bool:
    """Whether the machine type comes with its GPUs attached (a2, a3, a4, g2, ...)."""
    return machine_type.startswith(ACCELERATOR_OPTIMIZED)


def guest_accelerators(machine_type: str, accelerator: str, count: int) -> list[dict[str, Any]]:
    """`guest_accelerators` for a node: none on accelerator-optimized types, else N1 GPUs.

    Args:
        machine_type: e.g. `a3-highgpu-8g` or `n1-standard-16`.
        accelerator: catalog accelerator name, e.g. `T4`.
        count: GPUs per node.

    Returns:
        `[]` for a2/a3/a4/g2 types; `[{"type": "nvidia-tesla-t4", "count": 4}]` for N1.

    Raises:
        ValueError: for GPUs on a series that takes none, or an accelerator N1 lacks.
    """
    if is_accelerator_optimized(machine_type):
        return []
    if not machine_type.startswith("n1-"):
        raise ValueError(
            f"instance_type: {machine_type} takes no GPUs; use an accelerator-optimized type "
            "(a2-, a3-, g2-) or an n1- type with T4/V100/P100/P4"
        )
    gpu_type = N1_ACCELERATORS.get(accelerator)
    if gpu_type is None:
        raise ValueError(f"accelerator: {accelerator} does not attach to N1; valid: {', '.join(N1_ACCELERATORS)}")
    return [{"type": gpu_type, "count": count}]


def scheduling(purchase: str) -> dict[str, Any]:
    """`scheduling` for a node.

    Args:
        purchase: `spot` or `on-demand`.

    Returns:
        Spot: SPOT, preemptible, no automatic restart, STOP on preemption; on-demand:
        STANDARD with automatic restart. Both TERMINATE on host maintenance.
    """
    if purchase == "spot":
        return {
            "provisioning_model": "SPOT",
            "preemptible": True,
            "automatic_restart": False,
            "instance_termination_action": "STOP",
            "on_host_maintenance": "TERMINATE",
        }
    return {
        "provisioning_model": "STANDARD",
        "preemptible": False,
        "automatic_restart": True,
        "on_host_maintenance": "TERMINATE",
    }


def boot_disk_type(machine_type: str) -> str:
    """`hyperdisk-balanced` on A3 Ultra and A4, else `pd-balanced` (see module docstring)."""
    return "hyperdisk-balanced" if machine_type.startswith(HYPERDISK_ONLY) else "pd-balanced"


def reservation_affinity(reservation: str | None) -> dict[str, Any] | None:
    """`reservation_affinity` that consumes one named reservation, or None.

    Args:
        reservation: `ClusterConfig.capacity_reservation_id`, a reservation name.
    """
    if not reservation:
        return None
    return {
        "type": "SPECIFIC_RESERVATION",
        "specific_reservation": {
            "key": "compute.googleapis.com/reservation-name",
            "values": [reservation],
        },
    }
