"""The instance types the committed catalog knows, for the live fetchers.

Fetchers only price: which VM sizes / machine types exist, which accelerators they carry,
their vCPUs and memory, and (GCP) their zones come from the committed catalog
(`profiles/catalog/data/<provider>.csv`, built from the SkyPilot extract).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from profiles.catalog.fetchers import FetchError
from profiles.catalog.loader import CatalogError, load_provider
from profiles.catalog.offering import Offering


def known_offerings(
    provider: str, catalog: Iterable[Offering] | None = None, data_dir: Path | None = None
) -> list[Offering]:
    """The catalog rows of `provider`: `catalog` when given, else the committed file.

    Args:
        provider: `azure` or `gcp`.
        catalog: offerings to use instead of `data_dir/<provider>.csv` (tests, callers
            that already loaded the catalog).
        data_dir: folder of the committed catalog files (default: the installed catalog).

    Raises:
        FetchError: the committed file is missing or malformed.
    """
    from profiles.catalog import loader

    data_dir = data_dir or loader.DATA_DIR
    if catalog is not None:
        return [o for o in catalog if o.provider == provider]
    path = data_dir / f"{provider}.csv"
    try:
        return load_provider(path)
    except (OSError, CatalogError) as exc:
        raise FetchError(
            f"cannot read the known {provider} instance types from {path} ({exc}); run `make catalog`"
        ) from None


def templates_by_type(offerings: Iterable[Offering]) -> dict[str, Offering]:
    """Instance type -> its first catalog row (hardware facts are the same in every zone)."""
    templates: dict[str, Offering] = {}
    for offering in offerings:
        templates.setdefault(offering.instance_type, offering)
    return templates
