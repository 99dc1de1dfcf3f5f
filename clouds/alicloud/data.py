"""OSS datasets on Alibaba Cloud: the URI form, the CPFS data flow's rules and the node's RAM
policy (see `clouds.data`).

The link is a CPFS **data flow** between a Fileset of the cluster's CPFS file system and the OSS
bucket (pulumi-alicloud `nas.Fileset` + `nas.DataFlow`). Facts, from Alibaba's CPFS
CreateDataFlow API page and "Manage dataflows" / "CPFS dataflow" user guides (help.aliyun.com,
alibabacloud.com/help; stored copies updated 2025-11 to 2026-07):

  * after the data flow is created, CPFS syncs the bucket's object metadata and loads a file's
    data blocks on first access (on-demand loading): a lazy link, no copy before training;
  * the source is a whole bucket (`oss://BUCKET`): "a prefix under the bucket is not supported
    yet"; objects appear under the Fileset at their bucket path, so `oss://b/imagenet/x.jpg`
    is `<mount>/<DATA_PATH>/imagenet/x.jpg`;
  * the bucket must be in the file system's region and carry the tag `cpfs-dataflow: true`
    (set by its owner before the data flow is created, never changed while it runs);
  * a Fileset holds at most 1,000,000 files; data already in the Fileset is replaced by the
    bucket's when the data flow is created;
  * data-flow bandwidth (`throughput`) is 600, 1,200 or 1,500 MB/s, billed per bandwidth, and
    must be less than the file system's own I/O bandwidth;
  * export back to the bucket is a data-flow task (CreateDataFlowTask, TaskAction Export),
    which no pulumi-alicloud 4.0.0 resource models: `export_command` prints it.

CPFS reaches the bucket through its service-linked role AliyunServiceRoleForNasOssDataflow.
The nodes' RAM role (`node_ram_policy`) may list and read the dataset's prefix, and write it
only with write-back; nothing else in OSS.
"""

from __future__ import annotations

import math

from clouds.bucket_uri import BucketUri
from clouds.data_config import DataConfig

SCHEME = "oss"
SOURCE_KIND = "an OSS bucket (oss://BUCKET/PREFIX)"
LINK = "lazy"
NEEDS_FILE_SYSTEM = True
DATA_PATH = "/data/"  # the Fileset the bucket appears under, in the CPFS file system
BUCKET_TAG = ("cpfs-dataflow", "true")  # CreateDataFlow: the source bucket must carry it
MAX_FILESET_FILES = 1_000_000  # CreateDataFlow: files a Fileset holds
FLOW_MBPS = (600, 1200, 1500)  # CreateDataFlow: data-flow bandwidth specs, MB/s
# OSS bucket names: 3-63 lowercase letters, digits and hyphens, starting and ending with a
# letter or digit (OSS bucket naming rules).
_OSS_URI = BucketUri(SCHEME, r"[a-z0-9][a-z0-9-]{1,61}[a-z0-9]", "an OSS URI", "oss://my-bucket/datasets/imagenet")
owns = _OSS_URI.owns  # True for any `oss://` URI (valid or not)
# `oss://bucket/some/prefix` -> `("bucket", "some/prefix/")` ("" for a whole bucket); ValueError
# `data.source: ...` naming the form.
split_uri = _OSS_URI.split


def config_problem(data: DataConfig) -> str | None:
    """What the CPFS data flow cannot take: more files than one Fileset holds (1,000,000)."""
    if data.files is not None and data.files > MAX_FILESET_FILES:
        return (
            f"data.files: {data.files:,} files exceed the {MAX_FILESET_FILES:,} a CPFS Fileset holds "
            "(the data flow's destination, Alibaba CreateDataFlow); pack the samples into fewer files "
            "(tar/webdataset shards) or pick another provider"
        )
    return None


def flow_throughput(capacity_gib: float, mbps_per_tib: int) -> int:
    """The data-flow bandwidth for a CPFS file system: the smallest spec (600, 1,200, 1,500 MB/s)
    below the file system's own bandwidth, `capacity (TiB) x mbps_per_tib` (the flow is billed
    by its bandwidth, and CreateDataFlow refuses one not below the file system's).

    Args:
        capacity_gib: the CPFS capacity, GiB.
        mbps_per_tib: its throughput tier, MB/s per TiB (100 or 200).

    Raises:
        ValueError: `file_system...` when the file system is too slow for the smallest spec,
            naming the capacity that would do.
    """
    bandwidth = capacity_gib / 1024 * mbps_per_tib
    for spec in FLOW_MBPS:
        if spec < bandwidth:
            return spec
    needed = FLOW_MBPS[0] * 1024 / mbps_per_tib
    faster = " or throughput_mbps_per_tib: 200" if mbps_per_tib < 200 else ""
    raise ValueError(
        f"file_system.capacity_gib: a {capacity_gib:,.0f} GiB CPFS at {mbps_per_tib} MB/s per TiB gives "
        f"{bandwidth:,.0f} MB/s, and a data flow needs more than its smallest bandwidth, {FLOW_MBPS[0]} MB/s; "
        f"set capacity_gib above {needed:,.0f}{faster}"
    )


def min_capacity(mbps_per_tib: int) -> tuple[int, str]:
    """The smallest CPFS, in whole GiB, whose bandwidth (capacity in TiB x `mbps_per_tib`)
    exceeds the smallest data-flow bandwidth (CreateDataFlow: the flow must be below the file
    system's own bandwidth), and why (for the row's note)."""
    gib = math.floor(FLOW_MBPS[0] * 1024 / mbps_per_tib) + 1
    return gib, (
        f"the smallest CPFS at {mbps_per_tib} MB/s per TiB whose bandwidth exceeds the smallest data flow's "
        f"{FLOW_MBPS[0]} MB/s (Alibaba CreateDataFlow)"
    )


def first_read_mbps(capacity_gib: float, mbps_per_tib: int) -> float | None:
    """The first pass loads from OSS through the data flow, so no faster than its bandwidth
    (CreateDataFlow: "the maximum transfer bandwidth the flow reaches when importing or
    exporting"), MB/s; None when the file system carries no flow."""
    try:
        return float(flow_throughput(capacity_gib, mbps_per_tib))
    except ValueError:
        return None


def uncounted(capacity_gib: float, mbps_per_tib: int) -> str | None:
    """The data flow's bandwidth charge, which trainstack cannot count: CreateDataFlow says the
    flow is billed by its bandwidth, and no published price for it was found (Alibaba's CPFS
    API and billing pages searched 2026-12-04); None when the file system carries no flow."""
    try:
        flow = flow_throughput(capacity_gib, mbps_per_tib)
    except ValueError:
        return None
    return f"the CPFS data flow's {flow:,} MB/s bandwidth, which Alibaba bills; no published price for it was found"


def file_system_problem(capacity_gib: float, mbps_per_tib: int) -> str | None:
    """Why a CPFS of this size and tier cannot carry a data flow (`flow_throughput`), or None."""
    try:
        flow_throughput(capacity_gib, mbps_per_tib)
    except ValueError as exc:
        return str(exc)
    return None


def bucket_problem(bucket: str, region: str, found: list[dict]) -> str | None:
    """Why the bucket cannot be a data flow's source, from the `oss.get_buckets` answer, or None.

    Args:
        bucket: the bucket name.
        region: the cluster's region (`cn-beijing`); OSS reports it as `oss-cn-beijing`.
        found: the buckets the lookup returned (each with `name`, `location`, `tags`).
    """
    match = next((b for b in found if b.get("name") == bucket), None)
    if match is None:
        return f"data.source: no OSS bucket '{bucket}' in this account; create it or fix data.source"
    location = str(match.get("location") or "")
    if location.removeprefix("oss-") != region:
        return (
            f"data.source: bucket '{bucket}' is in {location}, and a CPFS data flow links only a bucket "
            f"in the file system's region ({region}); copy the data to a bucket in {region}"
        )
    key, value = BUCKET_TAG
    if (match.get("tags") or {}).get(key) != value:
        return (
            f"data.source: bucket '{bucket}' lacks the tag {key}={value} a CPFS data flow needs; "
            f"add it (ossutil or the OSS console: bucket tagging) and keep it while the cluster runs"
        )
    return None


def node_ram_policy(bucket: str, prefix: str, write_back: bool) -> dict:
    """The node RAM role's policy document: list and read `bucket/prefix`, write it only with
    write-back (PutObject and multipart clean-up, never DeleteObject); nothing else in OSS.

    Args:
        bucket: the bucket name.
        prefix: the object-name prefix ending in `/`, or "" for the whole bucket.
        write_back: True to allow writes under the prefix.

    Returns:
        A RAM policy document (dict; `Version` "1"), in the form of Alibaba's "OSS
        authorization syntax and elements" page (`oss:Prefix` limits ListObjects).
    """
    bucket_arn = f"acs:oss:*:*:{bucket}"
    statements: list[dict] = [
        {
            "Effect": "Allow",
            "Action": ["oss:ListObjects"],
            "Resource": [bucket_arn],
            **({"Condition": {"StringLike": {"oss:Prefix": [f"{prefix}*"]}}} if prefix else {}),
        },
        {"Effect": "Allow", "Action": ["oss:GetObject"], "Resource": [f"{bucket_arn}/{prefix}*"]},
    ]
    if write_back:
        statements.append(
            {
                "Effect": "Allow",
                "Action": ["oss:PutObject", "oss:AbortMultipartUpload"],
                "Resource": [f"{bucket_arn}/{prefix}*"],
            }
        )
    return {"Version": "1", "Statement": statements}


def node_trust_policy() -> dict:
    """The RAM role's trust policy: only ECS instances may assume it."""
    return {
        "Version": "1",
        "Statement": [{"Action": "sts:AssumeRole", "Effect": "Allow", "Principal": {"Service": ["ecs.aliyuncs.com"]}}],
    }


def export_command(file_system_id: str, data_flow_id: str, prefix: str) -> str:
    """The `aliyun` CLI call that exports what the job wrote under the dataset's prefix back to
    the bucket (CreateDataFlowTask, TaskAction Export); run it after training."""
    return (
        f"aliyun nas CreateDataFlowTask --FileSystemId {file_system_id} --DataFlowId {data_flow_id} "
        f"--TaskAction Export --DataType MetaAndData --Directory {DATA_PATH}{prefix}"
    )
