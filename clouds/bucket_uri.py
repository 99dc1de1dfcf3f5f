"""The `SCHEME://BUCKET/PREFIX` form of the clouds' object storage: a cloud's bucket-link module
(`clouds/<cloud>/data.py`, see `clouds.data`) declares its form as a `BucketUri`, which parses
a dataset URI and refuses a prefix that would widen the nodes' access policy."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass


def split_bucket_uri(uri: str, pattern: re.Pattern[str], kind: str, example: str) -> tuple[str, str]:
    """`SCHEME://bucket/some/prefix` -> `("bucket", "some/prefix/")`; the prefix is "" for a whole bucket.

    Args:
        uri: the dataset URI.
        pattern: the cloud's URI rule, with groups `bucket` and `prefix`.
        kind: what the URI must be, for the message (`an S3 URI`).
        example: a URI of that kind (`s3://my-bucket/datasets/imagenet`).

    Raises:
        ValueError: `data.source: ...` naming the expected form.
    """
    match = pattern.match(uri.strip())
    if not match:
        raise ValueError(f"data.source: '{uri}' is not {kind}; write it like {example}")
    prefix = (match.group("prefix") or "").strip("/")
    if problem := _prefix_problem(uri, prefix):
        raise ValueError(problem)
    return match.group("bucket"), f"{prefix}/" if prefix else ""


# Characters a prefix may not hold: it is written into the node's IAM policy or condition, where
# `*` and `?` are wildcards (AWS), `${` opens a policy variable, `"` and `\` end or escape a CEL
# string (GCP, Azure conditions), and a control character ends a line of the bootstrap.
_PREFIX_UNSAFE = re.compile(r'[*?"\\\x00-\x1f\x7f]|\$\{')


def _prefix_problem(uri: str, prefix: str) -> str | None:
    """Why the key prefix of dataset `uri` cannot scope the nodes' access (one line), or None."""
    if found := _PREFIX_UNSAFE.search(prefix):
        return (
            f"data.source: '{uri}' holds {found.group()!r}, which would widen the nodes' access policy "
            "beyond the dataset; name the dataset's folder exactly, e.g. s3://team-datasets/imagenet/train"
        )
    if any(part in (".", "..") for part in prefix.split("/")) or "//" in prefix:
        return (
            f"data.source: '{uri}' has an empty, '.' or '..' path segment; name the dataset's folder "
            "exactly, without relative parts, e.g. s3://team-datasets/imagenet/train"
        )
    return None


@dataclass(frozen=True)
class BucketUri:
    """The `SCHEME://BUCKET/PREFIX` URI form of one cloud's object storage, for the `owns` and
    `split_uri` of its `clouds/<cloud>/data.py`.

    Attributes:
        scheme: the URI scheme (`s3`).
        bucket: a regular expression of the cloud's valid bucket names (the whole name).
        kind: what the URI must be, for the message (`an S3 URI`).
        example: a URI of that kind (`s3://my-bucket/datasets/imagenet`).
    """

    scheme: str
    bucket: str
    kind: str
    example: str

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """`SCHEME://BUCKET` with an optional `/PREFIX`, groups `bucket` and `prefix`."""
        return re.compile(rf"^{re.escape(self.scheme)}://(?P<bucket>{self.bucket})(?:/(?P<prefix>.*))?$")

    def owns(self, uri: str) -> bool:
        """True when `uri` is a `<scheme>://` URI (valid or not)."""
        return scheme_of(uri) == self.scheme

    def split(self, uri: str) -> tuple[str, str]:
        """`split_bucket_uri` with this form.

        Raises:
            ValueError: `data.source: ...` naming the expected form.
        """
        return split_bucket_uri(uri, self.pattern, self.kind, self.example)


def scheme_of(uri: str) -> str:
    """`s3` for `s3://bucket/x`; "" when the URI has no scheme."""
    head, sep, _ = uri.partition("://")
    return head.lower() if sep else ""
