"""A cloud's own command-line tool asked for credentials (`az account get-access-token`,
`gcloud auth print-access-token`), with every way it can fail said in words: the tool is not
installed, it did not answer in time, or it failed with its own first line of stderr (never the
Python exception's class name). Shared by the live Azure and GCP readers (`azure_api`,
`gcp_api`), so `check`, `status`, `run` and `bench` say it the same way."""

from __future__ import annotations

import subprocess

from profiles.preflight.finding import PreflightError
from profiles.short_text import one_line

TIMEOUT = 60  # seconds the tool may take (a choice: a token is printed in about a second)


def tool_output(command: list[str], missing: str, fix: str, timeout: float = TIMEOUT) -> str:
    """The standard output of `command` (stripped), run without a shell.

    Args:
        command: the tool and its arguments, e.g. `["gcloud", "auth", "print-access-token"]`.
        missing: what is missing when it fails, the start of the error (`no GCP credentials`).
        fix: how to provide it, the end of the error (`log in with ...`).

    Raises:
        PreflightError: one line, `{missing}: {why}; {fix}`, where why is `gcloud is not
            installed (not on PATH)`, `... did not answer in 60 s` or
            `` `gcloud auth print-access-token` failed: <its stderr's first line> ``.
    """
    shown = " ".join(command)
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=timeout)
    except FileNotFoundError:
        why = f"{command[0]} is not installed (not on PATH)"
    except subprocess.TimeoutExpired:
        why = f"`{shown}` did not answer in {timeout:g} s"
    except OSError as exc:  # not executable, and the like: the system's own words
        why = f"`{shown}` could not run: {one_line(exc.strerror or exc)}"
    else:
        if done.returncode == 0:
            return done.stdout.strip()
        said = next((line.strip().rstrip(".") for line in done.stderr.splitlines() if line.strip()), "")
        why = f"`{shown}` failed: {one_line(said)}" if said else f"`{shown}` failed (exit {done.returncode})"
    raise PreflightError(f"{missing}: {why}; {fix}")


def unreachable(service: str, exc: Exception, timeout: float = TIMEOUT) -> PreflightError:
    """The one-line error for a `requests` call to `service` that got no answer: timed out,
    no connection (DNS, proxy, network), or the request's own words; never the class name."""
    import requests

    if isinstance(exc, requests.Timeout):
        why = f"no answer in {timeout:g} s"
    elif isinstance(exc, requests.ConnectionError):
        why = "no connection (network, DNS or proxy)"
    else:
        why = one_line(exc, 100)
    return PreflightError(f"cannot reach {service}: {why}; check the network")
