"""GCP GPU node prices from the Cloud Billing Catalog API (an API key, no OAuth).

API (https://docs.cloud.google.com/billing/v1/how-tos/catalog-api):
`GET https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus?key=API_KEY`
answers `{"skus": [...], "nextPageToken": "..."}`, at most 5,000 SKUs a page; the token
is empty or absent on the last page. 6F81-5844-456A is Compute Engine (its SKUs are named
"services/6F81-5844-456A/skus/..." with serviceDisplayName "Compute Engine"; SkyPilot's
fetch_gcp.py calls it GCE_SERVICE_ID). SKU parsing lives in `gcp_skus`.

A GPU node costs vCPUs x core price + memory GiB x RAM price + GPUs x GPU price, per region
and purchase: the offline catalog's sum, host VM + accelerators (extract README, "GCP
pricing"). Machine types, their GPUs, vCPUs, memory and zones come from the committed
catalog (`data/gcp.csv`); a zone is priced when its region is in the SKUs'
`serviceRegions`. Offerings are built by the offline builder
`profiles.catalog.sources.gcp.gpu_offerings`; committed-use (1y/3y) node prices are the
same sum of the Commit1Yr/Commit3Yr SKUs.

TPUs are not fetched: v5p/v5e/v6e slices are priced by Compute Engine SKUs whose wording
could not be recorded, v2-v4 by another service (E000-3F24-B8AA). TPU rows stay with the
offline catalog.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import requests

from facts.gcp import HOSTS
from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.gcp_skus import API, UnitPrices, parse_skus
from profiles.catalog.fetchers.http_json import get_json
from profiles.catalog.fetchers.known_types import known_offerings
from profiles.catalog.offering import Offering
from profiles.catalog.sources.gcp import gpu_offerings

SERVICE_ID = "6F81-5844-456A"
URL = f"https://cloudbilling.googleapis.com/v1/services/{SERVICE_ID}/skus"
PAGE_SIZE = 5000
SOURCE = "gcp-cloud-billing-catalog"
KEY_VARIABLES = ("TRAINSTACK_GCP_API_KEY", "GOOGLE_API_KEY")
PURCHASES = ("on-demand", "spot", "1y", "3y")
HINTS = {
    400: "set a valid API key in TRAINSTACK_GCP_API_KEY (or GOOGLE_API_KEY)",
    403: "enable the Cloud Billing API in the key's project and allow it in the key's API restrictions",
}

# Machine type -> (SkyPilot accelerator name, GPUs), inverted from the offline facts.
MACHINE_GPUS: dict[str, tuple[str, int]] = {m: pair for pair, machines in HOSTS.items() for m in machines}

Parts = dict[str, tuple[float | None, float | None]]  # purchase -> (host VM, GPUs) USD/hour


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    http_session: requests.Session | None = None,
    api_key: str | None = None,
    catalog: Iterable[Offering] | None = None,
    **_clients: Any,
) -> list[Offering]:
    """On-demand, spot and committed-use prices of the catalog's GCP GPU machine types.

    Args:
        regions: GCP regions (`us-central1`); None or empty for every region.
        progress: called with one line per page read.
        http_session: the `requests.Session` to use (default: a new one).
        api_key: Cloud Billing API key (default: TRAINSTACK_GCP_API_KEY, GOOGLE_API_KEY).
        catalog: offerings whose GCP rows list the known machine types and zones
            (default: the committed catalog).
        **_clients: other fetchers' clients (e.g. a boto3 `session`); ignored.

    Returns:
        One `Offering` per known (machine type, zone) with an on-demand or spot price,
        whole-node USD/hour (1y/3y: committed-use rates), `source` SOURCE.

    Raises:
        FetchError: no API key, throttling, partial or malformed pages, an empty answer,
            or no known machine type priced.
    """
    key = resolve_api_key(api_key)
    known = known_offerings("gcp", catalog)
    session = http_session or requests.Session()
    try:
        skus = fetch_skus(session, key, progress)
    finally:
        if http_session is None:
            session.close()
    offerings = build_offerings(parse_skus(skus), known, regions, dt.date.today().isoformat())
    if not offerings:
        where = f" in {', '.join(regions)}" if regions else ""
        raise FetchError(
            f"{API}: {len(skus)} SKUs but no known GPU machine type could be priced{where}; check the regions"
        )
    progress(f"gcp: {len(offerings)} offerings priced")
    return offerings


def resolve_api_key(explicit: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """The API key: `explicit`, else TRAINSTACK_GCP_API_KEY, else GOOGLE_API_KEY.

    Raises:
        FetchError: none is set.
    """
    key = explicit or next((environ[name] for name in KEY_VARIABLES if environ.get(name)), None)
    if not key:
        raise FetchError(
            "GCP prices need an API key: set TRAINSTACK_GCP_API_KEY (or GOOGLE_API_KEY) "
            "to a key of a project with the Cloud Billing API enabled"
        )
    return key


def fetch_skus(session: requests.Session, key: str, progress: Callable[[str], None]) -> list[dict[str, Any]]:
    """Every Compute Engine SKU, following `nextPageToken` to the last page.

    Raises:
        FetchError: a failed, partial or malformed page, a repeated token, no SKUs.
    """
    skus: list[dict[str, Any]] = []
    seen: set[str] = set()
    token, page = "", 0
    while True:
        page += 1
        params = {"key": key, "pageSize": str(PAGE_SIZE), "currencyCode": "USD"}
        params.update({"pageToken": token} if token else {})
        page_skus, token = check_page(get_json(session, URL, api=API, page=page, params=params, hints=HINTS), page)
        skus.extend(page_skus)
        progress(f"gcp: SKU page {page}: {len(page_skus)} SKUs")
        if not token:
            break
        if token in seen:
            raise FetchError(f"{API}, page {page}: nextPageToken repeats an earlier one (malformed); retry later")
        seen.add(token)
    if not skus:
        raise FetchError(f"{API}: no SKUs in the answer (empty answer); check the key's project, or retry later")
    return skus


def check_page(body: dict[str, Any], page: int) -> tuple[list[dict[str, Any]], str]:
    """A page's SKUs and next-page token (`""` on the last page).

    Raises:
        FetchError: `skus` is not a list of objects or the token is not a string.
    """
    skus, token = body.get("skus", []), body.get("nextPageToken", "")
    if not isinstance(skus, list) or not all(isinstance(sku, dict) for sku in skus) or not isinstance(token, str):
        raise FetchError(f"{API}, page {page}: no 'skus' list or a bad nextPageToken (malformed answer); retry")
    return skus, token


def node_parts(prices: UnitPrices, row: Offering, purchase: str) -> tuple[float | None, float | None]:
    """(host VM, GPUs) USD/hour of the catalog row's machine type in its region; a part is
    None when one of its unit prices (core, RAM, GPU) or the row's vCPUs/memory is missing."""
    name, count = MACHINE_GPUS[row.instance_type]
    family = row.instance_type.split("-")[0]
    core = prices.get(("core", family, purchase, row.region))
    ram = prices.get(("ram", family, purchase, row.region))
    gpu = prices.get(("gpu", name, purchase, row.region))
    host = (
        None
        if core is None or ram is None or row.vcpus is None or row.memory_gib is None
        else row.vcpus * core + row.memory_gib * ram
    )
    return host, None if gpu is None else count * gpu


def build_offerings(
    prices: UnitPrices, known: Iterable[Offering], regions: Sequence[str] | None, date: str
) -> list[Offering]:
    """Offerings built by the offline builder for each known (machine type, zone) of
    `regions` (all when None), plus committed-use USD/hour, sorted (type, region, zone)."""
    hosts: dict[tuple[str, str], dict[str, str]] = {}
    gpus: dict[tuple[str, int, str], dict[str, str]] = {}
    committed: dict[tuple[str, str], dict[str, float]] = {}
    for row in known:
        if row.instance_type not in MACHINE_GPUS or (regions and row.region not in regions):
            continue
        parts: Parts = {purchase: node_parts(prices, row, purchase) for purchase in PURCHASES}
        name, count = MACHINE_GPUS[row.instance_type]
        hosts[(row.instance_type, row.zone)] = _host_row(row, parts)
        gpus.setdefault((name, count, row.zone), _gpu_row(name, count, row, parts))
        committed[(row.instance_type, row.zone)] = {
            term: round(host + gpu, 6)
            for term in ("1y", "3y")
            for host, gpu in [parts[term]]
            if host is not None and gpu is not None
        }
    offerings = []
    for gpu in gpus.values():
        for offering in gpu_offerings(gpu, hosts, date):
            terms = committed[(offering.instance_type, offering.zone)]
            offerings.append(
                offering._replace(
                    source=SOURCE, reserved_1y_usd_per_hour=terms.get("1y"), reserved_3y_usd_per_hour=terms.get("3y")
                )
            )
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))


def _text(value: float | None) -> str:
    return "" if value is None else repr(value)


def _part(parts: Parts, purchase: str, index: int) -> str:
    return _text(parts[purchase][index])


def _host_row(row: Offering, parts: Parts) -> dict[str, str]:
    """The offline builder's host-VM row (`gcp_gpu_host_vms.csv` columns)."""
    return {
        "InstanceType": row.instance_type,
        "vCPUs": _text(row.vcpus),
        "MemoryGiB": _text(row.memory_gib),
        "Price": _part(parts, "on-demand", 0),
        "SpotPrice": _part(parts, "spot", 0),
    }


def _gpu_row(name: str, count: int, row: Offering, parts: Parts) -> dict[str, str]:
    """The offline builder's accelerator row (`gcp_gpu.csv` columns)."""
    return {
        "AcceleratorName": name,
        "AcceleratorCount": str(count),
        "GpuInfo": "",
        "Region": row.region,
        "AvailabilityZone": row.zone,
        "Price": _part(parts, "on-demand", 1),
        "SpotPrice": _part(parts, "spot", 1),
    }
