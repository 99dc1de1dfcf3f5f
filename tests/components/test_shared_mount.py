"""Where each cloud's nodes mount the shared file system is one fact: the Cloud object says it
(the bench kit and docs read it there), and the node bootstrap mounts it there."""

from __future__ import annotations

import pytest

from clouds import mounts
from clouds.aws.cloud_init import MOUNT_POINT
from clouds.node_bootstrap import SHARED_MOUNT
from clouds.registry import CLOUDS
from trainstack.bench.kit import default_data_dir


@pytest.mark.parametrize("cloud", ["aws", "azure", "gcp"])
def test_the_cloud_says_where_its_bootstrap_mounts_the_file_system(cloud):
    assert SHARED_MOUNT == MOUNT_POINT == mounts.SHARED_MOUNT == "/fsx"
    assert CLOUDS[cloud].shared_mount == SHARED_MOUNT
    assert default_data_dir(cloud).startswith(SHARED_MOUNT + "/")


@pytest.mark.parametrize(
    ("fstype", "source", "options", "expected"),
    [
        pytest.param(
            "lustre",
            "10.0.16.4@tcp:/lustrefs",
            "noatime,flock",
            "sudo mkdir -p /fsx && sudo mount -t lustre -o noatime,flock 10.0.16.4@tcp:/lustrefs /fsx",
            id="lustre",
        ),
        pytest.param(
            "nfs",
            "10.99.0.2:/trainstack",
            "hard",
            "sudo mkdir -p /fsx && sudo mount -t nfs -o hard 10.99.0.2:/trainstack /fsx",
            id="nfs",
        ),
    ],
)
def test_the_mount_command_mounts_at_the_one_mount_point(fstype, source, options, expected):
    assert mounts.mount_command(fstype, source, options) == expected


@pytest.mark.parametrize("source", ["10.0.0.1:/x; rm -rf /", "$(id)@tcp:/fs", "a b"])
def test_a_mount_source_a_shell_would_misread_is_refused(source):
    with pytest.raises(ValueError, match="file_system_dns: .* is not a mount source"):
        mounts.mount_command("nfs", source)
