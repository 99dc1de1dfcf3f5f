"""The job's dataset: where it lives (the team's bucket) and how big it is; which clouds can link it.

A cloud that can link a bucket to its file system has a module `clouds/<cloud>/data.py` with:

- `SOURCE_KIND`: what its bucket URIs look like, for messages (`an S3 bucket (s3://BUCKET/PREFIX)`);
- `owns(uri) -> bool`: True when the URI names this cloud's object storage (valid or not);
- `split_uri(uri)`: parses the URI, raising `ValueError` naming `data.source`;
- `LINK`: how the file system gets the data, `lazy` (files load on first read, no copy step,
  e.g. an FSx data repository association) or `import` (an import job copies the data before
  training: staging time counts in the job's hours);
- with `import`, `staging(fs) -> Staging`: the rate and the way the cloud's stack copies the
  data onto the file system it creates for `fs` (a `FileSystemRequest`), which may differ per
  file-system kind (GCP: an import job into Managed Lustre, a copy from one node onto Filestore);
- `NEEDS_FILE_SYSTEM`: True when the link goes through the file system (a stack with `data` then
  needs `file_system`);
- optionally `first_read_mbps(capacity_gib, mbps_per_tib) -> float | None`: a lazy link's own
  bound on the first pass (Alibaba: the data flow's bandwidth; `first_read_mbps`);
- optionally `uncounted(capacity_gib, mbps_per_tib) -> str | None`: a charge of the link that
  no published price lets trainstack count (Alibaba's data-flow bandwidth), said once per row
  and per plan (`uncounted_charge`);
- optionally `DATA_FIELDS` (the `DataConfig` fields only this cloud reads, e.g. Azure's
  `resource_group`), `config_problem(data) -> str | None` (what else the link needs) and
  `file_system_problem(capacity_gib, mbps_per_tib) -> str | None` (a file system the link
  cannot use, e.g. one too slow for Alibaba's smallest data flow), with, for a file system
  trainstack sizes itself, `min_capacity(mbps_per_tib) -> (GiB, why)`: the smallest the link
  can use, so a size trainstack picked is never refused (`link_min_capacity`).

Clouds without that module cannot link a bucket yet; `data_problem` says so.
"""

from __future__ import annotations

import functools
import importlib
import re
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from clouds.bucket_uri import scheme_of

if TYPE_CHECKING:
    from clouds.data_config import DataConfig


def __getattr__(name: str) -> Any:
    """`clouds.data.DataConfig` still imports (it lives in `clouds.data_config`, a pydantic
    model this module does not load: `trainstack resolve` imports this one)."""
    if name == "DataConfig":
        from clouds.data_config import DataConfig

        return DataConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Fields some clouds' links read and others refuse (`DATA_FIELDS` of the link module).
CLOUD_FIELDS = ("resource_group",)


@functools.lru_cache(maxsize=32)
def link_for(provider: str) -> ModuleType | None:
    """The cloud's bucket-link module (`clouds.<provider>.data`), or None when it has none."""
    try:
        return importlib.import_module(f"clouds.{provider}.data")
    except ModuleNotFoundError:
        return None


class Staging(NamedTuple):
    """How a cloud's stack copies the dataset onto its file system before training.

    Attributes:
        mbps: the copy's rate, MB/s (10^6 bytes per second): the bound its sources give.
        how: what copies and the basis of `mbps`, for the row's note (an unsourced part is
            said to be unsourced).
    """

    mbps: float
    how: str


def staging(provider: str, fs: Any) -> Staging | None:
    """How `provider`'s stack copies the dataset onto the file system it creates for `fs` (a
    `clouds.filesystems.FileSystemRequest`), or None when nothing is copied (a lazy link, or
    none at all)."""
    link = link_for(provider)
    if link is None or link.LINK != "import":
        return None
    return link.staging(fs)


def link_min_capacity(provider: str, mbps_per_tib: int) -> tuple[int, str] | None:
    """`(GiB, why)`: the smallest file system `provider`'s bucket link can use at `mbps_per_tib`
    (the link module's `min_capacity`), or None when the link sets no floor."""
    link = link_for(provider)
    floor = getattr(link, "min_capacity", None) if link is not None else None
    return floor(mbps_per_tib) if floor is not None else None


def first_read_mbps(provider: str, capacity_gib: float, mbps_per_tib: int) -> float | None:
    """How fast `provider`'s lazy bucket link loads files on their first read, MB/s, where that is
    its own bound (the link module's `first_read_mbps`: Alibaba's data-flow bandwidth), or None."""
    link = link_for(provider)
    rate = getattr(link, "first_read_mbps", None) if link is not None else None
    return None if rate is None else rate(capacity_gib, mbps_per_tib)


def uncounted_charge(provider: str, capacity_gib: float, mbps_per_tib: int) -> str | None:
    """`not counted: ...` for a charge of `provider`'s bucket link that has no sourced price
    (the link module's `uncounted`), or None."""
    link = link_for(provider)
    what = getattr(link, "uncounted", None) if link is not None else None
    text = what(capacity_gib, mbps_per_tib) if what is not None else None
    return f"not counted: {text}" if text else None


_URI = re.compile(r"^[a-z][a-z0-9+.-]*://[^/\s]+", re.IGNORECASE)


def source_problem(uri: str) -> str | None:
    """Why `uri` is no bucket URI at all, or is malformed for the cloud whose storage it names
    (one line naming `data.source` and the form), or None.

    A well-formed URI of a cloud without a link (`oss://`, `cos://`) passes: the clouds that
    cannot link it refuse it per offering (`data_problem`).
    """
    from clouds.registry import NAMES  # the registry imports every cloud: only on this path

    links = [link for link in (link_for(name) for name in NAMES) if link is not None]
    if not _URI.match(uri.strip()):
        forms = ", ".join(link.SOURCE_KIND for link in links)
        return f"data.source: '{uri}' is not a bucket URI; write {forms}, or your cloud's SCHEME://BUCKET/PREFIX"
    for link in links:
        if link.owns(uri):
            try:
                link.split_uri(uri)
            except ValueError as exc:
                return str(exc)
    return None


def unlinked_source(uri: str) -> str | None:
    """Why no trainstack cloud can link `uri` (a well-formed URI of a storage no link module
    `owns`, e.g. `cos://`), in one line that says which kind each cloud links; None when some
    cloud links it."""
    from clouds.registry import NAMES  # the registry imports every cloud: only on this path

    links = [(name, link) for name in NAMES if (link := link_for(name)) is not None]
    if any(link.owns(uri) for _, link in links):
        return None
    kinds = "; ".join(f"{name}: {link.SOURCE_KIND}" for name, link in links)
    if not scheme_of(uri):  # `team-bucket/imagenet`: no scheme at all, not a storage nobody links
        return f"data.source: '{uri}' is not a bucket URI (no SCHEME://); write your cloud's ({kinds})"
    return (
        f"data.source: no trainstack cloud links {scheme_of(uri)}:// buckets yet (each links only its own: "
        f"{kinds}); copy the data onto the file system yourself and drop `data`, or copy it to one of those"
    )


def holds(provider: str, uri: str) -> bool:
    """True when `uri` names `provider`'s own object storage (its link module `owns` it)."""
    link = link_for(provider)
    return link is not None and link.owns(uri)


def holder_of(uri: str) -> str | None:
    """The cloud whose object storage `uri` names (`alicloud` for `oss://`), or None."""
    from clouds.registry import NAMES  # the registry imports every cloud: only on this path

    return next((name for name in NAMES if holds(name, uri)), None)


def _whose(holder: str) -> str:
    from clouds.registry import CLOUDS

    return f"{CLOUDS[holder].display_name}'s ({holder})"  # Alibaba Cloud's (alicloud)


def data_problem(
    provider: str, data: DataConfig, has_file_system: bool, file_system: tuple[float, int] | None = None
) -> str | None:
    """Why `provider`'s cluster cannot link `data` (one line naming the field and the fix), or None.

    Checks, in order: the cloud has a bucket link at all, the URI names the cloud's own object
    storage, the URI parses, no other cloud's field is set, the cloud's own extra needs
    (`config_problem`), a file system exists when the link goes through one, and the link can
    use it (`file_system_problem`, given `file_system` as (capacity GiB, MB/s per TiB)).
    """
    link = link_for(provider)
    if link is None:
        from clouds.base import Feature
        from clouds.registry import CLOUDS

        why = CLOUDS[provider].why_not(Feature.BUCKET_LINK) if provider in CLOUDS else None
        if (holder := holder_of(data.source)) is not None:  # another cloud's bucket: the blocker to name
            return (
                f"data.source: '{data.source}' is {_whose(holder)} bucket, and {provider} links no bucket to its file "
                f"system in trainstack yet; train on {holder}, which can link it, or copy the data onto the file "
                "system yourself and drop `data`"
            )
        return (
            f"data.source: {provider} cannot link a bucket to its file system in trainstack yet"
            f"{f' ({why})' if why else ''}; "
            "copy the data onto the file system yourself and drop `data`, or pick another provider"
        )
    if not link.owns(data.source):
        holder = holder_of(data.source)
        return unlinked_source(data.source) or (
            f"data.source: '{data.source}' is not {link.SOURCE_KIND}, the only kind {provider} can link"
            + (f"; it is {_whose(holder)} bucket" if holder else "")
            + f"; copy the data there or pick the cloud that holds it{f' ({holder})' if holder else ''}"
        )
    try:
        link.split_uri(data.source)
    except ValueError as exc:
        return str(exc)
    for field in CLOUD_FIELDS:
        if getattr(data, field) is not None and field not in getattr(link, "DATA_FIELDS", ()):
            return f"data.{field}: {provider} does not use it (only some clouds' buckets need it); drop it"
    extra = getattr(link, "config_problem", None)
    if extra is not None and (problem := extra(data)):
        return problem
    if link.NEEDS_FILE_SYSTEM and not has_file_system:
        return f"data: the {provider} bucket link goes through the file system; add a file_system"
    fs_check = getattr(link, "file_system_problem", None)
    if fs_check is not None and file_system is not None:
        return fs_check(*file_system)
    return None
