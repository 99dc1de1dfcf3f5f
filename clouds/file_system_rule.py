"""The sizing rule of the parallel file system a cloud's component creates (`FileSystemRule`,
a `clouds.base.Cloud`'s `file_system`), named by targets imported only when asked for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FileSystemRule:
    """The pure sizing rule of the parallel file system a cloud's component creates.

    Attributes:
        target: `"module:function"`; it raises `ValueError` (one-line reason) when the cloud
            cannot provide the request, else returns a NamedTuple of what it creates.
        service: the service name as the provider spells it (`FSx for Lustre`).
        by_numbers: True when the rule takes (capacity GiB, MB/s per TiB) rather than a
            `FileSystemConfig`.
        explicit_choice: `"module:function"` `FileSystemConfig -> deployment_type or None`:
            the choice a stack must state where the rule would otherwise refuse rather than
            give less throughput; None when the cloud has no such choice.
        prices: `"module:attribute"` of its list prices, MB/s per TiB tier ->
            `facts.storage_prices.StoragePrice` (the module cites the sources and dates);
            None when no price is sourced (the resolver estimates, `profiles.cost.storage`).
        delivers: `"module:function"` `FileSystemRequest -> clouds.filesystems.Delivery`: the
            read and write rates of what the rule creates, where they are not capacity x the
            asked tier (GCP Filestore, which sells no tiers); None: capacity x tier.
    """

    target: str
    service: str
    by_numbers: bool = False
    explicit_choice: str | None = None
    prices: str | None = None
    delivers: str | None = None
