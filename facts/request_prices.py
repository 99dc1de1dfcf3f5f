"""Object-storage request prices: what reading the team's bucket into the file system costs per request.

One row per object store whose price could be sourced: the read (GET) and the write or list
(PUT/LIST) price per 1,000 requests of the standard storage class, in USD; a cloud names its row
in `Cloud.request_price`. A cloud with no row has no sourced price: its request charges are left
out of the job's cost, and the resolve row says so (never priced as free, never guessed).

Sources:
  R1  c3x.dev "S3 request fees explained" (third-party, undated page): S3 Standard
      "PUT, COPY, POST, LIST (Tier 1): $0.005 per 1,000 requests", "GET, HEAD, SELECT
      (Tier 2): $0.0004 per 1,000 requests".
  R2  awsi.click "Why S3 Request Pricing Differs Between GET and PUT" (third-party, undated):
      the same two figures "(in us-east-1)". The official page (aws.amazon.com/s3/pricing)
      renders these cells from a price file; its stored copies show template tokens only.
  G1  cloud.google.com/storage/pricing-examples (Google's own page, undated stored copy):
      Standard storage in us-east1, "Class A operations * $0.0050 per 1,000 operations"
      (object adds, bucket and object listings), "Class B operations * $0.0004 per 1,000
      operations" (object gets, metadata reads).
Not found: Azure Blob Storage read and list operations (the official page renders "$-" in
every stored copy; only unsourced or other-currency third-party figures were found; searched
again 2026-12-04: only a generated third-party plan file with approximate "~" figures), Alibaba
OSS requests (Alibaba's "Request fees" page gives the billing method, requests x unit price per
10,000, and defers the unit price to the OSS pricing page, which no stored copy renders; only an
undated third-party blog's CNY figure was found; searched 2026-12-04), and the other Chinese
clouds' object stores (their links are not built). Their requests are not counted, and the row
and `plan` say so once.
"""

from __future__ import annotations

from typing import NamedTuple


class RequestPrice(NamedTuple):
    """Request prices of one provider's object storage (standard class), USD.

    Attributes:
        service: the storage service and class.
        read_usd_per_1000: GET (S3 Tier 2, Cloud Storage Class B), USD per 1,000 requests.
        list_usd_per_1000: LIST and PUT (S3 Tier 1, Cloud Storage Class A), USD per 1,000.
        region: the region the price was read for.
        source: source id(s), see the module docstring.
        observed: when the price was observed (the source's own date), or `undated`.
        estimate: True when the figure is third-party rather than read off the provider.
    """

    service: str
    read_usd_per_1000: float
    list_usd_per_1000: float
    region: str
    source: str
    observed: str
    estimate: bool


# Each cloud's `Cloud.request_price` names its row (`clouds/<cloud>/__init__.py`).
S3_STANDARD = RequestPrice("Amazon S3 Standard", 0.0004, 0.005, "us-east-1", "R1, R2 (third-party)", "undated", True)
CLOUD_STORAGE_STANDARD = RequestPrice("Cloud Storage Standard", 0.0004, 0.005, "us-east1", "G1", "undated", False)
