"""Assemble a node's local NVMe disks into one ephemeral scratch file system at `/scratch`.

The node bootstrap runs this at every boot, as root (`python3 scratch.py`, standard library only):

1. find the local NVMe disks: AWS instance store (NVMe model `Amazon EC2 NVMe Instance Storage`),
   Azure NVMe direct disks (model `Microsoft NVMe Direct Disk`, ND H100/H200 v5), Google Cloud
   Local SSD (`/dev/disk/by-id/google-local-nvme-ssd-*`); EBS, managed and persistent disks are
   never touched;
2. with two or more, assemble them into one RAID0 array (`mdadm`, `/dev/md/scratch`);
3. format the device (ext4, no reserved blocks, label `scratch`) only when it holds no file system;
4. mount it at `/scratch` (`noatime`) and create the dataset cache directory
   `/scratch/cache/datasets` (mode 1777), which data loaders may use.

Idempotent: a second run finds `/scratch` mounted and does nothing; after a reboot on the same
host it re-assembles the array and mounts it without formatting. Ephemeral, by design: local NVMe
contents are lost when the instance stops, is interrupted or is replaced (AWS instance store,
Azure temp and NVMe disks, GCP Local SSD), so `/scratch` is a cache, never the only copy: keep
checkpoints on the shared file system or in the bucket.

`--dry-run` prints the commands it would run and changes nothing; `--devices` names the disks
instead of detecting them (tests use loop devices).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

MOUNT_POINT = "/scratch"
CACHE_DIR = "cache/datasets"
ARRAY = "/dev/md/scratch"
LABEL = "scratch"
# NVMe models of local (instance-attached) disks, per cloud. EBS reports
# "Amazon Elastic Block Store"; Azure managed disks and GCP persistent disks are not NVMe
# direct disks, so neither pattern matches them.
LOCAL_MODELS = re.compile(r"^(Amazon EC2 NVMe Instance Storage|Microsoft NVMe Direct Disk.*)$")
GCP_LOCAL_SSD_IDS = ("google-local-nvme-ssd-", "google-local-ssd-")


@dataclass(frozen=True)
class Disk:
    """A block device the node could use for scratch.

    Attributes:
        path: device path (`/dev/nvme1n1`).
        fstype: file-system signature on it (`ext4`, `linux_raid_member`), or None for none.
        mountpoint: where it is mounted, or None.
    """

    path: str
    fstype: str | None = None
    mountpoint: str | None = None


def plan(
    disks: Sequence[Disk], array: Disk | None, mounted_at_target: bool, mount_point: str = MOUNT_POINT
) -> list[list[str]]:
    """The commands that make `mount_point` a scratch file system over `disks`.

    Args:
        disks: the local disks to use (already filtered to local NVMe).
        array: the RAID0 array if it is already assembled (a rerun without a reboot), else None.
        mounted_at_target: True when something is already mounted at `mount_point`.
        mount_point: where to mount.

    Returns:
        Commands (argv lists) in order; empty when there is nothing to do (already mounted, or
        no local disks: see `describe`).

    Raises:
        ValueError: a disk is mounted elsewhere (in use by the system: never reformatted).
    """
    if mounted_at_target or not disks:
        return []
    busy = [d.path for d in disks if d.mountpoint]
    if busy:
        raise ValueError(f"local disk(s) {', '.join(busy)} already mounted elsewhere; not touching them")
    steps: list[list[str]] = []
    if len(disks) == 1:
        target = disks[0]
    elif array is not None:
        target = array
    else:
        paths = [d.path for d in disks]
        if all(d.fstype == "linux_raid_member" for d in disks):
            steps.append(["mdadm", "--assemble", ARRAY, *paths])  # same host after a reboot
        else:
            steps.append(
                ["mdadm", "--create", ARRAY, "--level=0", "--force", "--run", f"--raid-devices={len(paths)}", *paths]
            )
        target = Disk(ARRAY, None if steps[0][1] == "--create" else "unknown")
    if target.fstype is None:
        steps.append(["mkfs.ext4", "-F", "-q", "-m", "0", "-L", LABEL, target.path])
    elif target.fstype == "unknown":  # an assembled array: format only if it carries nothing
        steps.append(["sh", "-c", f"blkid {target.path} >/dev/null || mkfs.ext4 -F -q -m 0 -L {LABEL} {target.path}"])
    cache = f"{mount_point.rstrip('/')}/{CACHE_DIR}"
    steps += [
        ["mkdir", "-p", mount_point],
        ["mount", "-o", "noatime", target.path, mount_point],
        ["mkdir", "-p", cache],
        ["chmod", "1777", mount_point, cache],
    ]
    return steps


def describe(disks: Sequence[Disk], mounted_at_target: bool, mount_point: str = MOUNT_POINT) -> str:
    """One line saying what `plan` decided, for the boot log."""
    if mounted_at_target:
        return f"{mount_point} already mounted; nothing to do"
    if not disks:
        return f"no local NVMe disks on this instance type; {mount_point} not created"
    layout = "one disk" if len(disks) == 1 else f"RAID0 over {len(disks)} disks"
    return f"{mount_point}: {layout} ({', '.join(d.path for d in disks)}), ephemeral cache"


def local_disks(lsblk: dict, by_id: Sequence[str] = ()) -> list[Disk]:
    """The local NVMe disks among `lsblk --json --nodeps -o PATH,MODEL,TYPE,FSTYPE,MOUNTPOINT`.

    Args:
        lsblk: the parsed JSON of that command.
        by_id: resolved targets of GCP's `/dev/disk/by-id/google-local-*ssd-*` links.

    Returns:
        Whole disks whose model is a local NVMe model or whose path is a GCP Local SSD, by path.
    """
    found = []
    for dev in lsblk.get("blockdevices", []):
        model = (dev.get("model") or "").strip()
        if dev.get("type") == "disk" and (LOCAL_MODELS.match(model) or dev.get("path") in by_id):
            found.append(Disk(dev["path"], dev.get("fstype"), dev.get("mountpoint")))
    return sorted(found, key=lambda d: d.path)


def _run(cmd: list[str]) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _fstype(path: str, run: Callable[[list[str]], str]) -> str | None:
    try:
        return run(["blkid", "-o", "value", "-s", "TYPE", path]).strip() or None
    except subprocess.CalledProcessError:
        return None  # blkid exits 2 when the device carries no signature


def _gcp_local_ssds() -> list[str]:
    folder = Path("/dev/disk/by-id")
    if not folder.is_dir():
        return []
    return [os.path.realpath(p) for p in folder.iterdir() if p.name.startswith(GCP_LOCAL_SSD_IDS)]


def _is_mounted(mount_point: str) -> bool:
    target = os.path.realpath(mount_point)
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        return any(line.split()[1] == target for line in mounts if len(line.split()) > 1)


def main(argv: Sequence[str] | None = None, run: Callable[[list[str]], str] = _run) -> int:
    """Detect, plan and (unless `--dry-run`) apply; returns the process exit status."""
    parser = argparse.ArgumentParser(description="Assemble local NVMe disks into /scratch (ephemeral).")
    parser.add_argument("--mount-point", default=MOUNT_POINT)
    parser.add_argument("--devices", nargs="*", help="use these disks instead of detecting local NVMe")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, change nothing")
    args = parser.parse_args(argv)
    if args.devices is not None:
        disks = [Disk(p, _fstype(p, run)) for p in args.devices]
    else:
        listing = json.loads(run(["lsblk", "--json", "--nodeps", "-o", "PATH,MODEL,TYPE,FSTYPE,MOUNTPOINT"]))
        disks = [
            Disk(d.path, d.fstype or _fstype(d.path, run), d.mountpoint)
            for d in local_disks(listing, _gcp_local_ssds())
        ]
    mounted = _is_mounted(args.mount_point)
    array = Disk(ARRAY, "unknown") if len(disks) > 1 and os.path.exists(ARRAY) else None
    try:
        steps = plan(disks, array, mounted, args.mount_point)
    except ValueError as exc:
        print(f"scratch: {exc}", file=sys.stderr)
        return 1
    print(f"scratch: {describe(disks, mounted, args.mount_point)}")
    for step in steps:
        print("+ " + " ".join(step))
        if not args.dry_run:
            run(step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
