"""Disk and file-system encryption: the `disks-encrypted` rule, what it checks, and the gaps.

Each cloud says in its own readers (`PolicyReaders.encryption` in `clouds/<cloud>/policy.py`,
whose docstring gives the SDK inputs and versions) how a type is encrypted: by a setting the
rule requires; by the platform, always (it passes); or not at all without a customer KMS key,
if ever. That last kind is a gap, an "n/a" line and never a violation, since no change to the
stack can fix it (see `rules.RULE_SCOPES`).
"""

from __future__ import annotations

from typing import Any

from policies.readers import ENCRYPTION


def disks_encrypted(record: dict[str, Any]) -> list[str]:
    """Root and data disks and file systems must be encrypted where an input can do it
    without a customer key (see the module docstring)."""
    found = ENCRYPTION.get(record["type"])
    return [] if found is None else found.check(record["inputs"])


def disks_checked(record: dict[str, Any]) -> bool:
    """True when `disks_encrypted` verifies at least one disk or file system of `record`."""
    found = ENCRYPTION.get(record["type"])
    return found is not None and found.checked(record["inputs"])


def encryption_gaps(record: dict[str, Any]) -> list[str]:
    """Disks and file systems of `record` left unencrypted because no input can encrypt them
    without a customer KMS key, if at all; one line each, saying why."""
    found = ENCRYPTION.get(record["type"])
    return [] if found is None else found.gaps(record["inputs"])
