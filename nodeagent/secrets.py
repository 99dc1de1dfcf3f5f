"""Read the job's secrets with the node's own identity, each time the job starts (stdlib only).

The job file names where each secret is (`clouds.job_secrets.node_secrets`), never its value.
The launcher reads them here just before it starts torchrun and hands them to the training
processes' environment only; nothing is written to disk or logged. A failure names the
environment variable and the store, never a value, and the launcher exits non-zero (systemd
starts it again after its restart delay). Each store's reader is
`nodeagent/secret_stores/<store>.py` (`read(where, ...)`), shipped only to nodes whose job
reads secrets.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Mapping

Http = Callable[..., tuple[int, dict, str]]
_STORE = re.compile(r"[a-z][a-z0-9]*")


class SecretError(Exception):
    """A secret that could not be read (the message names the variable and store, no value)."""


def answer_json(status: int, text: str, what: str) -> dict:
    """The JSON object of a 200 answer from `what`.

    Raises:
        SecretError: another status, or an answer that is not a JSON object.
    """
    if status != 200:
        raise SecretError(f"{what} answered HTTP {status}")
    try:
        answer = json.loads(text)
    except ValueError:
        raise SecretError(f"{what} answered something that is not JSON") from None
    if not isinstance(answer, dict):
        raise SecretError(f"{what} answered something that is not a JSON object")
    return answer


def read_secrets(secrets: Mapping[str, Mapping[str, str]], **readers_args: Callable) -> dict[str, str]:
    """Environment name -> value of every secret in the job file's `secrets`.

    Args:
        secrets: `NodeJob.secrets`.
        readers_args: `run=` (a CLI) or `call=` (HTTP) for the tests; the real ones by default.

    Raises:
        SecretError: one line naming the variable and the store (never a value).
    """
    values = {}
    for name, where in secrets.items():
        store = str(where.get("store", ""))
        try:
            if not _STORE.fullmatch(store):
                raise ModuleNotFoundError(store)
            reader = importlib.import_module(f"nodeagent.secret_stores.{store}").read
        except ModuleNotFoundError:
            raise SecretError(f"{name}: unknown secret store {store!r}") from None
        wanted = {k: v for k, v in readers_args.items() if k in reader.__code__.co_varnames}
        try:
            values[name] = reader(where, **wanted)
        except (SecretError, KeyError, ValueError, OSError) as exc:
            raise SecretError(f"{name}: cannot read {where.get('id')} from the {store} store: {exc}") from None
    return values
