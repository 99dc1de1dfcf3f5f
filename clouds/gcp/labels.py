r"""GCP labels for every labeled resource of a cluster, and GCP-safe resource ids.

GCP label keys and values hold only lowercase letters, digits, `_` and `-`, at most 63
characters, and keys start with a lowercase letter; a resource holds at most 64 labels
(Compute Engine "Labeling resources" requirements; not in shared/reference-facts, so
unsourced there). "International characters are allowed": Google's label format is
`[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}` for keys and `[\p{Ll}\p{Lo}\p{N}_-]{0,63}` for
values (Google API reference, e.g. Backup and DR `LabelKeyValPair`): lowercase or caseless
letters of any script and any number, which `label_char` tests by Unicode category.
Resource names and ids follow RFC 1035: lowercase letters, digits and `-`, starting with a
letter and not ending with `-`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping

PROVIDER = "gcp"
MAX_LABEL_CHARS = 63
MAX_LABELS = 64
_LETTERS = ("Ll", "Lo")  # \p{Ll} lowercase letters, \p{Lo} caseless ones (Chinese, Japanese ...)
_NUMBERS = ("Nd", "Nl", "No")  # \p{N}


def label_char(ch: str) -> bool:
    """True for a character a GCP label may hold: a lowercase or caseless letter of any script,
    a number, `_` or `-` (the module docstring's format)."""
    return ch in "_-" or unicodedata.category(ch) in _LETTERS + _NUMBERS


class LabelText:
    r"""What a whole label key (`key=True`: it starts with a letter) or value may be, with the
    `fullmatch` a `clouds.tag_rules.TagRules` pattern offers (Python's `re` has no `\p{Ll}`)."""

    def __init__(self, key: bool) -> None:
        self.key = key

    def fullmatch(self, text: str) -> bool:
        first = not self.key or (text[:1] != "" and unicodedata.category(text[0]) in _LETTERS)
        return first and all(label_char(ch) for ch in text)


_ID_INVALID = re.compile(r"[^a-z0-9-]+")


def sanitize_label_value(value: str) -> str:
    """A label value GCP accepts: lowercased, other characters (`:`, `/`, ` `...) -> `_`.

    Example: `"ML:Team A"` -> `"ml_team_a"`. Truncated to 63 characters.
    """
    return "".join(ch if label_char(ch) else "_" for ch in value.lower())[:MAX_LABEL_CHARS]


def sanitize_label_key(key: str) -> str:
    """A label key GCP accepts: as `sanitize_label_value`, prefixed `k` unless it starts
    with a letter (`"2024"` -> `"k2024"`)."""
    clean = sanitize_label_value(key)
    if not LabelText(key=True).fullmatch(clean[:1]):
        clean = f"k{clean}"[:MAX_LABEL_CHARS]
    return clean


def cluster_labels(name: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Labels for every labeled resource of one cluster.

    Args:
        name: the component's logical name (the cluster name).
        extra: the stack's own cost tags (`ClusterConfig.tags`), sanitized, applied last.

    Returns:
        `{"trainstack-cluster": name, "trainstack-provider": "gcp", **extra}`, every key
        and value sanitized (GCP forbids the `:` the AWS tag keys use).
    """
    labels = {
        "trainstack-cluster": sanitize_label_value(name),
        "trainstack-provider": PROVIDER,
    }
    for key, value in (extra or {}).items():
        labels[sanitize_label_key(key)] = sanitize_label_value(value)
    return labels


def label_collisions(extra: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """Pairs of tag keys that sanitize to the same label key.

    Returns:
        `(first_key, second_key, label_key)` per collision, in input order.
    """
    seen: dict[str, str] = {}
    clashes = []
    for key in extra:
        label = sanitize_label_key(key)
        if label in seen:
            clashes.append((seen[label], key, label))
        seen.setdefault(label, key)
    return clashes


def gcp_id(text: str, max_chars: int) -> str:
    """An RFC 1035 id of at most `max_chars` characters derived from `text`.

    Lowercases, turns runs of other characters into `-`, prefixes `t` unless it starts
    with a letter, and when too long keeps a prefix plus 6 hex digits of a SHA-256 of the
    full text, so distinct long names stay distinct.

    Example: `gcp_id("train-a3-nodes", 30)` -> `"train-a3-nodes"`.
    """
    clean = _ID_INVALID.sub("-", text.lower()).strip("-")
    if not clean[:1].isalpha():
        clean = f"t{clean}"
    if len(clean) > max_chars:
        digest = hashlib.sha256(text.encode()).hexdigest()[:6]
        clean = f"{clean[: max_chars - 7].rstrip('-')}-{digest}"
    return clean
