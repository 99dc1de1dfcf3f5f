"""The bucket's request charges for one job: reading the dataset into the file system, and
exporting what the job writes back (`data.write_back`).

Every link trainstack builds keeps a file in the file system once it has been read from the
bucket (FSx lazy load, Azure Managed Lustre HSM restore, Google Cloud's import job), so the
bucket is read once per file whatever the number of passes, as long as the file system holds
the whole dataset; a file system smaller than the dataset reads it again on every pass (the
same first-pass-only model as `profiles.data_path.sizing`; `/scratch` does not change bucket
requests, it only spares the file system). Counted per job:

- one GET per file (a lower bound for very large files, which a link may read in several
  ranged GETs);
- one LIST per 1,000 files: S3 ListObjectsV2 and Cloud Storage objects.list return at most
  1,000 names per request (their API references), so listing the prefix takes files / 1,000
  requests.

- one PUT per file the job writes back (`data.written_files`, with write-back): the export
  copies each new or changed file to the bucket (a lower bound for a file large enough to be
  uploaded in parts). PUTs are priced with LISTs (S3 Tier 1, Cloud Storage Class A "object
  adds"). Without `written_files` the exports are not counted, and the cost says so.

Prices: `facts.request_prices`, named per cloud by `Cloud.request_price`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from clouds.base import load
from clouds.registry import CLOUDS
from facts.request_prices import RequestPrice

NAMES_PER_LIST = 1000  # S3 ListObjectsV2 / Cloud Storage objects.list page size (API references)


@dataclass(frozen=True)
class RequestCost:
    """The bucket requests one job makes and what they cost.

    Attributes:
        reads: GET requests (files x passes that read the bucket).
        lists: LIST requests (one per 1,000 files).
        usd: their cost, USD.
        price: the prices used.
        writes: PUT requests of the export (one per written file), 0 without write-back.
    """

    reads: int
    lists: int
    usd: float
    price: RequestPrice
    writes: int = 0

    def describe(self) -> str:
        """One line for the row: the requests, their cost and the price's source."""
        basis = "third-party price" if self.price.estimate else "list price"
        puts = f" + {self.writes:,} PUTs" if self.writes else ""
        return (
            f"data: bucket requests ${self.usd:,.2f} ({self.reads:,} GETs + {self.lists:,} LISTs{puts}, "
            f"{self.price.service} {self.price.region}, {basis}: {self.price.source}, {self.price.observed})"
        )


def request_price(provider: str) -> RequestPrice | None:
    """The cloud's object-storage request prices (`Cloud.request_price`), or None when none is sourced."""
    cloud = CLOUDS.get(provider)
    return None if cloud is None or cloud.request_price is None else load(cloud.request_price)


def bucket_passes(passes: float, data_gib: float | None, fs_capacity_gib: float | None) -> float:
    """Passes that read the bucket: 1 when the file system holds the dataset (or either size is
    unknown: a linked file system is sized for its data), else every pass."""
    if data_gib is None or fs_capacity_gib is None or fs_capacity_gib >= data_gib:
        return 1.0
    return passes


def request_cost(provider: str, files: int, passes: float = 1.0, writes: int = 0) -> RequestCost | None:
    """The request charges of reading `files` files `passes` times from `provider`'s bucket and
    exporting `writes` files to it.

    Args:
        provider: the cloud whose object storage holds the dataset.
        files: number of files in the dataset.
        passes: passes that read the bucket (`bucket_passes`).
        writes: files the job exports (one PUT each); 0 without write-back.

    Returns:
        The cost, or None when no request price is recorded for `provider`.
    """
    price = request_price(provider)
    if price is None:
        return None
    reads = math.ceil(files * passes)
    lists = math.ceil(files / NAMES_PER_LIST)
    usd = reads / 1000 * price.read_usd_per_1000 + (lists + writes) / 1000 * price.list_usd_per_1000
    return RequestCost(reads, lists, usd, price, writes)


def file_count(data_gib: float | None, files: int | None, mean_file_mib: float | None) -> int | None:
    """Files in the dataset: given, or size / mean file size; None when neither is known."""
    if files is not None:
        return files
    if data_gib is not None and mean_file_mib:
        return math.ceil(data_gib * 1024 / mean_file_mib)
    return None


def requests_uncounted(provider: str) -> str:
    """`not counted: ...` for a provider whose object-store request price could not be sourced
    (`facts.request_prices` says what was searched)."""
    return f"not counted: {provider} bucket requests (no published request price was found)"
