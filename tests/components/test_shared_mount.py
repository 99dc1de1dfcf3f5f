"""Where each cloud's nodes mount the shared file system is one fact: the Cloud object says it
(the bench kit and docs read it there), and the node bootstrap mounts it there."""

from __future__ import annotations

import pytest

from clouds.aws.cloud_init import MOUNT_POINT
from clouds.registry import CLOUDS
from components.node_bootstrap import SHARED_MOUNT
from trainstack.bench.kit import default_data_dir


@pytest.mark.parametrize("cloud", ["aws", "azure", "gcp"])
def test_the_cloud_says_where_its_bootstrap_mounts_the_file_system(cloud):
    assert SHARED_MOUNT == MOUNT_POINT == "/fsx"
    assert CLOUDS[cloud].shared_mount == SHARED_MOUNT
    assert default_data_dir(cloud).startswith(SHARED_MOUNT + "/")
