"""Issue 17's "done when", end to end: a workload with `data: {source: s3://..., size: 2TiB,
files: 1.28M}` resolves to a sized file system, and its stack plans the bucket link and the
`/scratch` cache, at the cost `resolve` stated.

By hand: 2,048 GiB x 1.25 headroom = 2,560 GiB asked (no model, so no checkpoints); FSx
PERSISTENT_2 creates 1,200, 2,400, then steps of 2,400 GiB: 4,800 GiB at the default 250 MB/s
per TiB. The data repository association links `s3://team-datasets/imagenet/train/`; every
worker's user data installs the `/scratch` unit (p4d has 8 x 1 TB of local NVMe).
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from nodeagent.scratch_unit import UNIT
from profiles.catalog.loader import load_catalog
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.writer import cluster_config
from tests.components.test_data_safety import write_stack
from trainstack.plan.runner import run_plan

WORKLOAD = {
    "name": "done-when",
    "accelerators": ["A100:8"],
    "nodes": 2,
    "interconnect": "rdma",
    "hours": "24h",
    "data": {"source": "s3://team-datasets/imagenet/train", "size": "2TiB", "files": "1.28M"},
}


def test_a_2tib_s3_dataset_resolves_to_a_sized_linked_file_system_with_a_scratch_cache(tmp_path: Path):
    spec = parse_spec(WORKLOAD)
    catalog = load_catalog()
    choice = resolve(spec, catalog.offerings).choice.candidate
    assert choice.offering.provider == "aws"  # only the cloud holding the bucket can link it
    assert spec.file_system is not None and spec.file_system.capacity_gib == 2560
    assert choice.storage.service == "FSx for Lustre PERSISTENT_2" and choice.storage.capacity_gib == 4800
    config = cluster_config(spec, choice, catalog.version)
    assert config.file_system is not None and config.file_system.capacity_gib == 2560
    region = {"aws:region": config.region}
    write_stack(tmp_path, "done-when", "training-a100", region, **config.model_dump(mode="json", exclude_none=True))
    plan = run_plan("done-when", tmp_path)
    by_type = {r["type"]: r["inputs"] for r in plan.resources}
    assert by_type["aws:fsx/lustreFileSystem:LustreFileSystem"]["storageCapacity"] == 4800
    link = by_type["aws:fsx/dataRepositoryAssociation:DataRepositoryAssociation"]
    assert (link["dataRepositoryPath"], link["fileSystemPath"]) == ("s3://team-datasets/imagenet/train/", "/data")
    user_data = base64.b64decode(by_type["aws:ec2/launchTemplate:LaunchTemplate"]["userData"]).decode()
    assert f"systemctl enable --now {UNIT}" in user_data and "/fsx lustre" in user_data
    # the plan states the cost resolve ranked the row with
    assert plan.usd_total == pytest.approx(choice.usd_total, abs=0.01)
    assert plan.outputs["file_system_mount_command"].endswith(" /fsx")
