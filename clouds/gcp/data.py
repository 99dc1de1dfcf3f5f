"""Cloud Storage datasets on Google Cloud: the URI form and the node's bucket role (see `clouds.data`).

Google Cloud Managed Lustre copies data in from Cloud Storage with an import job
(`gcloud lustre instances import-data`), which no Pulumi resource models; Filestore imports
nothing, so the stack's `data_commands` copy it with `gcloud storage rsync` from one node. Either
way the copy's time counts in the job's hours (`staging`, `profiles.data_path.sizing`). The node service account may read and
list under the dataset's prefix only (`read_condition`), with write-back create new objects
there (`write_condition`, no delete), and nothing else in Cloud Storage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clouds.bucket_uri import BucketUri
from clouds.data import Staging

if TYPE_CHECKING:
    from clouds.filesystems import FileSystemRequest

SCHEME = "gs"
SOURCE_KIND = "a Cloud Storage bucket (gs://BUCKET/PREFIX)"
LINK = "import"
NEEDS_FILE_SYSTEM = True
# Transfers between Managed Lustre and Cloud Storage "can reach up to 100 GBps for files over
# 32 MB", limited by the instance's maximum throughput (capacity x performance tier): Google
# Cloud, Managed Lustre "Transfer data to and from Cloud Storage" (docs.cloud.google.com/
# managed-lustre/docs/transfer-data, read 2026-12-04). No rate is published for smaller files.
LUSTRE_IMPORT_MAX_MBPS = 100_000
READ_ROLE = "roles/storage.objectViewer"  # get and list objects: granted only under the prefix
# storage.objects.create (and multipart uploads), no storage.objects.delete: new objects only.
# Overwriting an object needs delete too (Cloud Storage "IAM permissions for JSON methods"), so
# a changed file is not written back on GCP; AWS's PutObject overwrites but deletes nothing.
WRITE_ROLE = "roles/storage.objectCreator"
_GS_URI = BucketUri(
    SCHEME, r"[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]", "a Cloud Storage URI", "gs://my-bucket/datasets/imagenet"
)
owns = _GS_URI.owns  # True for any `gs://` URI (valid or not)
# `gs://bucket/some/prefix` -> `("bucket", "some/prefix/")` ("" for a whole bucket); ValueError
# `data.source: ...` naming the form.
split_uri = _GS_URI.split


def import_command(instance: str, zone: str, project: str, uri: str) -> str:
    """The `gcloud` command that imports the dataset into the Managed Lustre instance (run once
    after `pulumi up`; the instance mounts at the cluster's file-system mount point)."""
    return (
        f"gcloud lustre instances import-data {instance} --location={zone} --project={project} "
        f"--gcs-path-uri={uri.rstrip('/')}/ --lustre-path=/"
    )


def copy_command(uri: str, mount: str) -> str:
    """The command that copies the dataset onto a Filestore share, run once on one node after
    `pulumi up` (Filestore has no import from Cloud Storage; the node's service account may read
    the bucket). The files land under `mount` as the Lustre import lays them out: relative to
    the dataset's prefix."""
    return f"gcloud storage rsync --recursive {uri.rstrip('/')}/ {mount}/"


def staging(fs: FileSystemRequest) -> Staging:
    """How the stack's `data_commands` copy the dataset onto the file system offered for `fs`.

    Managed Lustre: the import job, at the instance's throughput up to 100 GB/s
    (`LUSTRE_IMPORT_MAX_MBPS`; Google publishes that rate for files over 32 MB only, so for
    smaller files it is an upper bound). Filestore: `gcloud storage rsync` on one node, at most
    Filestore's write rate, 88 MiB/s per TiB (C4); one node's own copy rate is unsourced and
    not counted, so the hours are a lower bound.
    """
    from clouds.gcp.filesystems import LUSTRE, delivered, offered_file_system

    rates = delivered(fs)
    if offered_file_system(fs).kind == LUSTRE:
        return Staging(
            min(rates.write_mbps, LUSTRE_IMPORT_MAX_MBPS),
            "Managed Lustre import job at the instance's throughput: up to 100 GB/s for files over 32 MB on "
            "Google's Managed Lustre transfer-data page, read 2026-12-04; none is published for smaller files",
        )
    return Staging(
        rates.write_mbps,
        "gcloud storage rsync from one node onto Filestore, at Filestore's write rate of 88 MiB/s per TiB "
        "(Google's Filestore zonal tier table); one node's own copy rate is unsourced and not counted",
    )


def read_condition(bucket: str, prefix: str) -> dict[str, str] | None:
    """The IAM condition that limits the read role (`READ_ROLE`) to the dataset's prefix, or
    None for a whole-bucket dataset ("" prefix: the bucket is the dataset).

    Object reads are matched on the object's name, as in `write_condition`; listing is a
    bucket-level call, matched on the request's list prefix
    (`api.getAttribute("storage.googleapis.com/objectListPrefix", "")`, Google's IAM
    Conditions request attributes for Cloud Storage), so `gcloud storage ls gs://B/PREFIX`
    works and listing the rest of the bucket does not.
    """
    if not prefix:
        return None
    scope = f"projects/_/buckets/{bucket}/objects/{prefix}"
    listing = f'api.getAttribute("storage.googleapis.com/objectListPrefix", "").startsWith("{prefix}")'
    return {
        "title": "trainstack dataset prefix",
        "description": f"read only under gs://{bucket}/{prefix}",
        "expression": f'resource.name.startsWith("{scope}") || {listing}',
    }


def write_condition(bucket: str, prefix: str) -> dict[str, str]:
    """The IAM condition that limits the write role (`WRITE_ROLE`) to objects under `prefix`.

    What it covers: Cloud Storage names an object `projects/_/buckets/BUCKET/objects/NAME` in
    IAM conditions (Google's "IAM Conditions for Cloud Storage" resource names), so
    `resource.name.startsWith("projects/_/buckets/B/objects/PREFIX")` admits creating
    objects whose name starts with PREFIX and nothing else (the role deletes nothing): no object
    outside it, and no bucket-level call (listing the bucket is evaluated against the bucket's
    own name, so it comes from the unconditional read role). PREFIX ends in `/`, so
    `imagenet/` does not admit `imagenet2/`; a whole-bucket dataset ("" prefix) admits every
    object of that bucket only. Conditional bindings need uniform bucket-level access on the
    bucket.

    Args:
        bucket: the bucket name.
        prefix: the dataset's object-name prefix ending in `/`, or "" for the whole bucket.

    Returns:
        `{"title", "description", "expression"}` (gcp.storage.BucketIAMMember `condition`).
    """
    scope = f"projects/_/buckets/{bucket}/objects/{prefix}"
    return {
        "title": "trainstack write-back prefix",
        "description": f"write only under gs://{bucket}/{prefix}",
        "expression": f'resource.name.startsWith("{scope}")',
    }


# `job.tracking: {mlflow: managed}` on a VM stack (`clouds.mlflow_head`): the head's MLflow
# server keeps artifacts here; google-cloud-storage is MLflow's Cloud Storage client ("Artifact
# Stores": Google Cloud Storage needs it installed), not one of its requirements.
MLFLOW_PACKAGES = ("google-cloud-storage",)


def mlflow_artifacts(source: str, prefix: str) -> str:
    """The MLflow server's `--artifacts-destination`: `prefix` (ending in `/`) of the bucket of
    the dataset `source`."""
    bucket, _ = split_uri(source)
    return f"gs://{bucket}/{prefix.rstrip('/')}"
