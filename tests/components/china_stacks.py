"""Test-only cluster configs for the Chinese clouds, one per provider, for the parity test.

`usd_per_hour` is a placeholder (> 0, as the contract requires): list prices for these
clouds are mostly unsourced and no USD/CNY rate is recorded (china-clouds.md 2.x, 2.6).
Instance types are the ones the facts describe (sections 1.1-1.5).
"""

BASE = {"nodes": 2, "hours": 72, "usd_per_hour": 1.0, "purchase": "on-demand"}
CHINA_STACKS = {
    "parity-alicloud": {
        **BASE, "provider": "alicloud", "region": "cn-beijing", "zone": "cn-beijing-h",
        "instance_type": "ecs.ebmgn7ex.32xlarge", "accelerator": "A100-80GB", "accelerator_count": 8,
        "interconnect": "rdma", "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 100},
    },
    "parity-tencentcloud": {
        **BASE, "provider": "tencentcloud", "region": "ap-beijing", "zone": "ap-beijing-6",
        "instance_type": "GT4.41XLARGE948", "accelerator": "A100", "accelerator_count": 8,
        "interconnect": "none", "file_system": {"capacity_gib": 4800},
    },
    "parity-huaweicloud": {
        **BASE, "provider": "huaweicloud", "region": "cn-north-4", "zone": "cn-north-4a",
        "instance_type": "p3.16xlarge.8", "accelerator": "A100-80GB", "accelerator_count": 8,
        "interconnect": "none", "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 250},
    },
    "parity-volcengine": {
        **BASE, "provider": "volcengine", "region": "cn-beijing", "zone": "cn-beijing-a",
        "instance_type": "ecs.gni2.3xlarge", "accelerator": "A10", "accelerator_count": 1,
        "interconnect": "none", "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 100},
    },
    "parity-baiducloud": {
        **BASE, "provider": "baiducloud", "region": "bj", "zone": "cn-bj-a", "purchase": "spot",
        "instance_type": "bcc.hgn5IB.c116m978.8A100-80g", "accelerator": "A100-80GB", "accelerator_count": 8,
        "interconnect": "rdma", "ssh_cidrs": ["10.8.0.0/16"],
    },
}
