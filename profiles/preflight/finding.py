"""What a preflight check finds (`Finding`) and how it fails (`PreflightError`): the shared
bottom of `profiles.preflight`, imported by the checks (`check`, `aws`, `aws_reservation`) and the
guidance alike, so none of them imports another back."""

from __future__ import annotations

from dataclasses import dataclass

RETRY_HINT = "rerun `trainstack check`"
STATUSES = ("ok", "fail", "unknown", "info")


class PreflightError(ValueError):
    """The stack cannot be checked (bad file, missing credentials, API failure); one line.

    Attributes:
        findings: what was already found offline (the component's validation, the catalog)
            when a live check failed; [] when nothing was checked.
    """

    findings: list = []


@dataclass(frozen=True)
class Finding:
    """The outcome of one preflight check.

    Attributes:
        check: what was checked: `config` (the component's own validation), `catalog`,
            `offered`, `quota`, `reservation`.
        status: `ok`, `fail`, `unknown` (could not be checked live) or `info`.
        detail: one line: what was found, with units (vCPUs, GPUs).
        fix: one line: what to do about it; empty when nothing is needed.
    """

    check: str
    status: str
    detail: str
    fix: str = ""
