"""Per-node VM settings: scheduling, GPUs, boot disk, reservations."""

from __future__ import annotations

import pytest

from clouds.gcp.machine import (
    boot_disk_type,
    guest_accelerators,
    is_accelerator_optimized,
    reservation_affinity,
    scheduling,
)

# GPU VMs cannot live-migrate: both purchase options stop for host maintenance.
ON_DEMAND = {
    "provisioning_model": "STANDARD",
    "preemptible": False,
    "automatic_restart": True,
    "on_host_maintenance": "TERMINATE",
}


def test_spot_scheduling() -> None:
    # spot: preemptible, not restarted automatically, stopped (not deleted) on preemption
    spot = {"provisioning_model": "SPOT", "preemptible": True, "automatic_restart": False}
    assert scheduling("spot") == {**ON_DEMAND, **spot, "instance_termination_action": "STOP"}


def test_on_demand_scheduling() -> None:
    assert scheduling("on-demand") == ON_DEMAND


@pytest.mark.parametrize(
    "machine_type",
    ["a2-highgpu-8g", "a2-ultragpu-8g", "a3-highgpu-8g", "a3-megagpu-8g", "g2-standard-96"],
)
def test_accelerator_optimized_types_take_no_guest_accelerators(machine_type: str) -> None:
    assert is_accelerator_optimized(machine_type)
    assert guest_accelerators(machine_type, "H100", 8) == []


def test_n1_gets_guest_accelerators() -> None:
    t4 = guest_accelerators("n1-standard-16", "T4", 4)
    v100 = guest_accelerators("n1-highmem-8", "V100", 1)
    assert t4 == [{"type": "nvidia-tesla-t4", "count": 4}]
    assert v100 == [{"type": "nvidia-tesla-v100", "count": 1}]


@pytest.mark.parametrize(
    ("machine_type", "accelerator", "message"),
    [
        pytest.param("n1-standard-16", "A100", "does not attach to N1", id="a100-on-n1"),
        pytest.param("n2-standard-16", "T4", "takes no GPUs", id="n2"),
    ],
)
def test_bad_gpu_attachments(machine_type: str, accelerator: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        guest_accelerators(machine_type, accelerator, 1)


def test_boot_disk_type() -> None:
    assert boot_disk_type("a3-ultragpu-8g") == "hyperdisk-balanced"
    assert boot_disk_type("a4-highgpu-8g") == "hyperdisk-balanced"
    assert boot_disk_type("a3-highgpu-8g") == "pd-balanced"


def test_reservation_affinity() -> None:
    assert reservation_affinity(None) is None
    assert reservation_affinity("res-1") == {
        "type": "SPECIFIC_RESERVATION",
        "specific_reservation": {
            "key": "compute.googleapis.com/reservation-name",
            "values": ["res-1"],
        },
    }
