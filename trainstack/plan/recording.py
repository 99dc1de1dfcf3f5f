"""`RecordingMonitor`: the mock monitor that records what a plan registers.

It keeps every RegisterResource request (type, name, parent, protection, inputs, the
`ignore_changes` paths and the old names its aliases give it) and each component's
registered outputs, so `trainstack plan` can show the resource tree and `trainstack.review.diff`
can compare two plans the way the engine does.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from typing import Any

import pulumi
from pulumi import resource as sdk_resources
from pulumi.runtime import resource as sdk_resource
from pulumi.runtime import rpc, settings
from pulumi.runtime.mocks import MockMonitor
from pulumi.runtime.proto import resource_pb2, source_pb2


class RecordingMonitor(MockMonitor):
    """A mock monitor that records every registered resource (except the root stack).

    Each record is `{"type", "name", "parent", "protect", "inputs", "ignore_changes",
    "aliases"}`: `parent` is the parent's logical name (None at the stack root), `inputs`
    the deserialized wire-format (camelCase) inputs, `ignore_changes` the input paths the
    engine keeps at their deployed values, `aliases` the old logical names the resource's
    aliases give it: its own (`Alias(name=OLD)`) and the ones it inherits from its parent
    as the engine derives them (`new-node-0` under `new` aliased to `old` is `old-node-0`);
    a resource replaced delete-first also has `"delete_before_replace": True`, and one with
    `replace_on_changes` the sorted paths as `"replace_on_changes"`.
    `registered_outputs` maps each resource's logical name to the outputs it passed to
    `register_outputs`.
    """

    def __init__(self, mocks: pulumi.runtime.Mocks) -> None:
        super().__init__(mocks)
        self._lock = threading.Lock()
        self._records: list[dict[str, Any]] = []
        self._aliases: dict[str, list[str]] = {}
        self.registered_outputs: dict[str, dict[str, Any]] = {}

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Keep the registered outputs by logical name, then answer as the mock does."""
        outputs = rpc.deserialize_properties(request.outputs, keep_internal=False)
        with self._lock:
            self.registered_outputs[request.urn.split("::")[-1]] = outputs
        return super().RegisterResourceOutputs(request)

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Record the request, then register it as `MockMonitor` does."""
        parent = _logical_name(request.parent)
        aliases = _alias_names(request, parent, self._aliases.get(parent or "", []))
        with self._lock:
            self._aliases[request.name] = aliases
        response = super().RegisterResource(request)
        if request.type != "pulumi:pulumi:Stack":
            record = {
                "type": request.type,
                "name": request.name,
                "parent": parent,
                "protect": bool(request.protect),
                "inputs": _normalized(rpc.deserialize_properties(request.object, keep_internal=False)),
                "ignore_changes": sorted(request.ignoreChanges),
                "aliases": aliases,
            }
            if request.deleteBeforeReplace:  # only where asked: most records stay as they were
                record["delete_before_replace"] = True
            if request.replaceOnChanges:
                record["replace_on_changes"] = sorted(request.replaceOnChanges)
            with self._lock:
                self._records.append(record)
        return response

    def records(self) -> list[dict[str, Any]]:
        """The recorded resources sorted by (parent, type, name), so runs compare equal."""
        with self._lock:
            records = list(self._records)
        return sorted(records, key=_record_key)


def _alias_names(request: Any, parent: str | None, parent_aliases: list[str]) -> list[str]:
    """Old logical names of a resource: its own name aliases, then the ones inherited from
    its parent's (a child named with the parent's name as prefix takes the old prefix)."""
    own = [alias.spec.name for alias in request.aliases if alias.spec.name]
    inherited = [
        old + request.name[len(parent) :] for old in parent_aliases if parent and request.name.startswith(parent)
    ]
    return list(dict.fromkeys(name for name in (*own, *inherited) if name != request.name))


def _logical_name(urn: str) -> str | None:
    if not urn:
        return None
    parts = urn.split("::")
    if parts[2].split("$")[-1] == "pulumi:pulumi:Stack":
        return None
    return parts[-1]


def _normalized(value: Any) -> Any:
    """Sort mapping keys and turn integral floats (protobuf numbers) back into ints."""
    if isinstance(value, dict):
        return {key: _normalized(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_normalized(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _record_key(record: dict[str, Any]) -> tuple:
    natural = [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", record["name"])]
    return (record["parent"] is not None, record["parent"] or "", record["type"], natural)


@contextlib.contextmanager
def no_source_positions() -> Iterator[None]:
    """Skip the stack trace Pulumi's SDK takes at every resource registration while a plan runs.

    The SDK walks and formats the whole Python stack (reading each frame's source line) for
    each resource, to tell the engine where it was declared; no mock monitor reads it. Under
    a deep stack (a test runner's, about 60 frames) that was about a fifth of a plan's CPU.
    The SDK's own function is put back afterwards, whatever happens.
    """
    real = getattr(sdk_resource, "_get_stack_trace", None)
    if real is None:  # another SDK version: nothing to skip
        yield
        return
    sdk_resource._get_stack_trace = source_pb2.StackTrace
    try:
        yield
    finally:
        sdk_resource._get_stack_trace = real


@contextlib.contextmanager
def no_alias_urns() -> Iterator[None]:
    """Skip the URN Pulumi's SDK derives for every alias of every resource it constructs, while
    the monitor takes alias specs.

    The SDK keeps those URNs (`Resource._aliases`) only for a monitor that takes no alias specs:
    there it derives a child's aliases from its parent's (`pulumi.runtime.resource.all_aliases`).
    A monitor that takes them (the mock monitor does, as the Pulumi engine does) is sent each
    alias as the resource's options give it, and the URNs are never read (pulumi/pulumi#11064,
    #10010). Each is a chain of Outputs, and azure-native gives each resource one type alias per
    API version (about 30): about four fifths of an Azure plan's CPU. What is registered,
    aliases included, does not change. For a monitor without alias specs, the SDK's own function
    runs; with another SDK version, nothing is skipped; the SDK's function is put back
    afterwards, whatever happens.
    """
    real = getattr(sdk_resources, "collapse_alias_to_urn", None)
    if real is None:  # another SDK version: nothing to skip
        yield
        return

    def collapse(alias: Any, name: str, type_: str, parent: Any) -> Any:
        if settings.monitor_supports_feature(resource_pb2.RESOURCE_MONITOR_FEATURE_ALIAS_SPECS):
            return alias  # kept as given: with alias specs, `_aliases` is never read
        return real(alias, name, type_, parent)

    sdk_resources.collapse_alias_to_urn = collapse  # type: ignore[assignment]  # returns the alias as given
    try:
        yield
    finally:
        sdk_resources.collapse_alias_to_urn = real
