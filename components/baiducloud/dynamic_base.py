"""Shared behaviour of the Baidu dynamic providers: check, diff and state shaping.

Pulumi pickles a dynamic provider (with dill) into the state of every resource it manages.
The providers here are stateless classes in an importable module, so they pickle by
reference into a few hundred bytes; clients and credentials are created inside each call
(`components.baiducloud.api`), never kept on the object.

Each provider declares its inputs:
  * `INPUTS`: every input property;
  * `REQUIRED`: inputs that must be set (checked in `check`);
  * `UPDATABLE`: inputs changed in place by `update`; any other changed input replaces;
  * `CREATE_ONLY`: inputs applied at creation and then ignored by `diff` (tags of resources
    whose tags the SDK cannot change later);
  * `OUTPUTS`: the computed properties create and read add.
Outputs never reuse an input's name, so a computed value never looks like an input change.
Each resource (`BaiduResource`) names its provider and takes its inputs as one mapping.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeGuard

import pulumi
from pulumi.dynamic import CheckFailure, CheckResult, DiffResult, ReadResult, ResourceProvider
from pulumi.runtime import rpc

from components.baiducloud.api import BaiduApiError


class BaiduProvider(ResourceProvider):
    """Base class: generic `check` and `diff` from the declared input names."""

    INPUTS: tuple[str, ...] = ()
    REQUIRED: tuple[str, ...] = ()
    UPDATABLE: tuple[str, ...] = ()
    CREATE_ONLY: tuple[str, ...] = ()
    OUTPUTS: tuple[str, ...] = ()
    # True where a replacement must delete the old resource first: GPU nodes, so N new nodes
    # never wait beside N old ones for twice the quota and capacity (as Azure's scale set does).
    DELETE_BEFORE_REPLACE: bool = False
    POLL_SECONDS: float = 10.0
    TIMEOUT_SECONDS: float = 1800.0

    def check(self, _olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        """Report every required input that is missing or empty (unknowns pass)."""
        failures = [CheckFailure(key, f"{key} is required") for key in self.REQUIRED if news.get(key) in (None, "", [])]
        return CheckResult(news, failures + self.extra_failures(news))

    def extra_failures(self, _news: dict[str, Any]) -> list[CheckFailure]:
        """Provider-specific input checks; none by default."""
        return []

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        """Update in place when only `UPDATABLE` inputs changed, else replace (deleting the
        old resource first where `DELETE_BEFORE_REPLACE` says so).

        Unknown new values (computed by another resource during preview) count as changed.
        """
        changed = [
            key for key in self.INPUTS if key not in self.CREATE_ONLY and _norm(olds.get(key)) != _norm(news.get(key))
        ]
        replaces = [key for key in changed if key not in self.UPDATABLE]
        return DiffResult(
            changes=bool(changed),
            replaces=replaces,
            delete_before_replace=bool(replaces) and self.DELETE_BEFORE_REPLACE,
        )

    def inputs_of(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """The declared inputs of a property bag (drops `__provider` and outputs)."""
        return {key: props.get(key) for key in self.INPUTS}

    def read_or_gone(self, id_: str, fetch: Callable[[], dict[str, Any] | None]) -> ReadResult:
        """Run `fetch`; a not-found error or a None result means the resource is gone."""
        try:
            outs = fetch()
        except BaiduApiError as exc:
            if exc.not_found:
                return ReadResult("", {})
            raise
        return ReadResult(id_, outs) if outs is not None else ReadResult("", {})

    def wait_until(self, what: str, probe: Callable[[], bool]) -> None:
        """Poll `probe` every `POLL_SECONDS` until it returns True.

        Raises:
            TimeoutError: after `TIMEOUT_SECONDS`, naming what was awaited.
        """
        deadline = time.monotonic() + self.TIMEOUT_SECONDS
        while not probe():
            if time.monotonic() > deadline:
                seconds = f"{self.TIMEOUT_SECONDS:.0f}"
                raise TimeoutError(f"timed out after {seconds} s waiting for {what}")
            time.sleep(self.POLL_SECONDS)


class BaiduResource(pulumi.dynamic.Resource):
    """Base of the Baidu dynamic resources: a subclass names its `PROVIDER` (and its type,
    `module="baiducloud", name=...`); its properties are the provider's `INPUTS`, taken from
    `inputs` (an input not given is None), and its `OUTPUTS`, unknown until created."""

    PROVIDER: ClassVar[type[BaiduProvider]]

    def __init__(self, name: str, inputs: Mapping[str, Any], opts: pulumi.ResourceOptions | None = None) -> None:
        """Register the resource `name` with `inputs` (keys from the provider's `INPUTS`).

        Raises:
            TypeError: a key of `inputs` the provider does not declare (a typo would
                otherwise be dropped silently).
        """
        provider = self.PROVIDER()
        unknown = sorted(set(inputs) - set(provider.INPUTS))
        if unknown:
            raise TypeError(f"{type(self).__name__}: unknown input {', '.join(unknown)}; inputs: {provider.INPUTS}")
        props = {key: inputs.get(key) for key in provider.INPUTS} | dict.fromkeys(provider.OUTPUTS)
        super().__init__(provider, name, props, opts)


def known_text(value: Any) -> TypeGuard[str]:
    """True for a non-empty string that is not the preview placeholder of an unknown value."""
    return isinstance(value, str) and bool(value) and value != rpc.UNKNOWN


def ignore_not_found(action: Callable[[], Any]) -> None:
    """Run a delete call; a resource that is already gone is not an error."""
    try:
        action()
    except BaiduApiError as exc:
        if not exc.not_found:
            raise


def _norm(value: Any) -> Any:
    """Compare state and inputs alike: tuples as lists, integral floats as ints."""
    if isinstance(value, (list, tuple)):
        return [_norm(item) for item in value]
    if isinstance(value, dict):
        return {key: _norm(item) for key, item in value.items()}
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
