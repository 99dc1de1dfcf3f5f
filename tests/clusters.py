"""A checked-in cluster config (the shape the resolver writes) shared by tests."""

from typing import Any

# 2 x p4d.24xlarge, spot, EFA, 4,800 GiB FSx for Lustre at 250 MB/s per TiB.
BASE_CLUSTER: dict[str, Any] = {
    "provider": "aws",
    "region": "us-east-1",
    "zone": "use1-az4",
    "instance_type": "p4d.24xlarge",
    "accelerator": "A100",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "spot",
    "interconnect": "rdma",
    "hours": 72,
    "usd_per_hour": 20.5,
    "catalog_version": "2026-11-29",
    "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 250},
}
