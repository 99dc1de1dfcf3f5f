"""The /scratch assembly: planned steps per disk layout, detection from lsblk, and a real run on a loop device."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

import pytest

from nodeagent import scratch
from nodeagent.scratch import ARRAY, Disk, describe, local_disks, plan

MKFS = ["mkfs.ext4", "-F", "-q", "-m", "0", "-L", "scratch"]
TAIL = [
    ["mkdir", "-p", "/scratch"],
    ["mount", "-o", "noatime"],
    ["mkdir", "-p", "/scratch/cache/datasets"],
    ["chmod", "1777", "/scratch", "/scratch/cache/datasets"],
]


def _mount_step(device: str) -> list[list[str]]:
    return [TAIL[0], [*TAIL[1], device, "/scratch"], TAIL[2], TAIL[3]]


@pytest.mark.parametrize(
    ("disks", "array", "expected"),
    [
        pytest.param(
            [Disk("/dev/nvme1n1")],
            None,
            [[*MKFS, "/dev/nvme1n1"], *_mount_step("/dev/nvme1n1")],
            id="one-blank-disk-formatted",
        ),
        pytest.param([Disk("/dev/nvme1n1", "ext4")], None, _mount_step("/dev/nvme1n1"), id="one-disk-with-fs-kept"),
        pytest.param(
            [Disk("/dev/nvme1n1"), Disk("/dev/nvme2n1")],
            None,
            [
                [
                    "mdadm",
                    "--create",
                    ARRAY,
                    "--level=0",
                    "--force",
                    "--run",
                    "--raid-devices=2",
                    "/dev/nvme1n1",
                    "/dev/nvme2n1",
                ],
                [*MKFS, ARRAY],
                *_mount_step(ARRAY),
            ],
            id="two-blank-disks-raid0",
        ),
        pytest.param(
            [Disk("/dev/nvme1n1", "linux_raid_member"), Disk("/dev/nvme2n1", "linux_raid_member")],
            None,
            [
                ["mdadm", "--assemble", ARRAY, "/dev/nvme1n1", "/dev/nvme2n1"],
                ["sh", "-c", f"blkid {ARRAY} >/dev/null || mkfs.ext4 -F -q -m 0 -L scratch {ARRAY}"],
                *_mount_step(ARRAY),
            ],
            id="after-reboot-reassembled-not-reformatted",
        ),
        pytest.param(
            [Disk("/dev/nvme1n1", "linux_raid_member"), Disk("/dev/nvme2n1", "linux_raid_member")],
            Disk(ARRAY, "ext4"),
            _mount_step(ARRAY),
            id="array-present-only-mounted",
        ),
    ],
)
def test_plan_per_layout(disks, array, expected):
    assert plan(disks, array, mounted_at_target=False) == expected


def test_nothing_to_do_when_mounted_or_no_disks():
    assert plan([Disk("/dev/nvme1n1")], None, mounted_at_target=True) == []
    assert plan([], None, mounted_at_target=False) == []
    assert describe([], False) == "no local NVMe disks on this instance type; /scratch not created"
    assert (
        describe([Disk("/dev/a"), Disk("/dev/b")], False)
        == "/scratch: RAID0 over 2 disks (/dev/a, /dev/b), ephemeral cache"
    )


def test_a_disk_mounted_elsewhere_is_never_touched():
    with pytest.raises(ValueError, match="/dev/nvme2n1 already mounted elsewhere"):
        plan([Disk("/dev/nvme1n1"), Disk("/dev/nvme2n1", "ext4", "/data")], None, False)


def _dev(path, model, mountpoint=None, fstype=None, typ="disk"):
    return {"path": path, "model": model, "type": typ, "fstype": fstype, "mountpoint": mountpoint}


def test_detects_aws_instance_store_not_ebs():
    listing = {
        "blockdevices": [
            _dev("/dev/nvme0n1", "Amazon Elastic Block Store", "/", "ext4"),
            *[_dev(f"/dev/nvme{i}n1", "Amazon EC2 NVMe Instance Storage ") for i in (2, 1)],
            _dev("/dev/loop0", None, typ="loop"),
        ]
    }
    assert [d.path for d in local_disks(listing)] == ["/dev/nvme1n1", "/dev/nvme2n1"]


def test_detects_azure_nvme_direct_disks_and_gcp_local_ssd():
    azure = {
        "blockdevices": [_dev("/dev/sda", "Virtual Disk", "/"), _dev("/dev/nvme0n1", "Microsoft NVMe Direct Disk v2")]
    }
    assert [d.path for d in local_disks(azure)] == ["/dev/nvme0n1"]
    gcp = {
        "blockdevices": [
            _dev("/dev/nvme0n1", "nvme_card-pd", "/"),
            _dev("/dev/nvme0n2", "nvme_card"),
            _dev("/dev/nvme0n3", "nvme_card"),
        ]
    }
    assert [d.path for d in local_disks(gcp, by_id=["/dev/nvme0n2"])] == ["/dev/nvme0n2"]


def test_dry_run_changes_nothing(capsys):
    calls = []

    def fake_blkid(cmd):
        calls.append(cmd)
        raise subprocess.CalledProcessError(2, cmd)  # blkid: no signature on the device

    assert (
        scratch.main(
            ["--devices", "/dev/nvme9n1", "--dry-run", "--mount-point", "/nonexistent-scratch"], run=fake_blkid
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "+ mkfs.ext4 -F -q -m 0 -L scratch /dev/nvme9n1" in out
    assert calls == [["blkid", "-o", "value", "-s", "TYPE", "/dev/nvme9n1"]]


@pytest.fixture
def loop_device(tmp_path):
    if os.geteuid() != 0 or not shutil.which("losetup") or not shutil.which("mkfs.ext4"):
        pytest.skip("needs root, losetup and mkfs.ext4 to attach a loop device")
    image = tmp_path / "nvme.img"
    image.write_bytes(b"")
    os.truncate(image, 32 * 1024 * 1024)
    try:
        device = subprocess.run(
            ["losetup", "-f", "--show", str(image)], check=True, capture_output=True, text=True
        ).stdout.strip()
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"loop devices unavailable here: {exc.stderr.strip()}")
    yield device
    subprocess.run(["losetup", "-d", device], check=False)


def test_real_run_on_a_loop_device_is_idempotent(loop_device, tmp_path, capsys):
    mount_point = tmp_path / "scratch"
    try:
        assert scratch.main(["--devices", loop_device, "--mount-point", str(mount_point)]) == 0
        cache = mount_point / "cache" / "datasets"
        assert cache.is_dir() and stat.S_IMODE(cache.stat().st_mode) == 0o1777
        (cache / "shard-0").write_text("cached")
        assert scratch.main(["--devices", loop_device, "--mount-point", str(mount_point)]) == 0
        assert "already mounted; nothing to do" in capsys.readouterr().out
        subprocess.run(["umount", str(mount_point)], check=True)
        assert scratch.main(["--devices", loop_device, "--mount-point", str(mount_point)]) == 0
        assert "mkfs" not in capsys.readouterr().out  # remounted, not reformatted
        assert (cache / "shard-0").read_text() == "cached"
    finally:
        subprocess.run(["umount", str(mount_point)], check=False, capture_output=True)


def test_install_script_writes_the_exact_script_and_a_oneshot_unit(tmp_path):
    import base64
    import gzip
    import re

    from nodeagent.scratch_unit import SCRIPT, UNIT, install_script, unit_text

    text = install_script()
    encoded = re.search(r"echo '([A-Za-z0-9+/=]+)' \| base64 -d \| gunzip > " + re.escape(SCRIPT), text).group(1)
    shipped = gzip.decompress(base64.b64decode(encoded)).decode()
    namespace: dict = {}
    exec(compile(shipped, SCRIPT, "exec"), namespace)  # the shipped script is valid Python with the same plan
    disks = [scratch.Disk("/dev/nvme1n1"), scratch.Disk("/dev/nvme2n1")]
    assert namespace["plan"](disks, None, False) == scratch.plan(disks, None, False)
    assert len(text) < 4 * 1024  # a quarter of AWS user data (16 KB) at most
    assert f"cat > /etc/systemd/system/{UNIT} <<'TRAINSTACK_SCRATCH'\n{unit_text()}\nTRAINSTACK_SCRATCH" in text
    assert "Type=oneshot" in unit_text() and "Before=trainstack-job.service" in unit_text()
    assert text.rstrip().endswith(f"systemctl enable --now {UNIT} || true")
    script = tmp_path / "boot.sh"
    script.write_text(text)
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0  # valid bash
