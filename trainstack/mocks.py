"""Pulumi mocks shared by `trainstack plan` and the test suite.

`TrainstackMocks` stands in for every cloud: it echoes resource inputs as outputs and adds
what each cloud's provider computes (fake ids, ARNs, private IPs, file-system addresses),
and answers invokes (image and subnet lookups, region, project) by token; the answers are
each cloud's `Mock` (`clouds/<cloud>/mock.py`, named by its `Cloud.mock`). `RecordingMonitor`
also records every RegisterResource request and each component's registered outputs, so a
plan can show the resource tree.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pulumi
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockCallArgs, MockMonitor, MockResourceArgs

from clouds.base import Mock, load
from clouds.registry import CLOUDS

# (type-token prefix, the cloud's mock), longest prefix first: the fallback cloud's "" last.
_BY_PREFIX: list[tuple[str, Mock]] = sorted(
    ((prefix, mock) for mock in (load(c.mock) for c in CLOUDS.values()) for prefix in mock.prefixes),
    key=lambda item: -len(item[0]),
)
_MOCKS: tuple[Mock, ...] = tuple(dict.fromkeys(mock for _, mock in _BY_PREFIX))


class TrainstackMocks(pulumi.runtime.Mocks):
    """Deterministic stand-in for every cloud: same inputs always give the same outputs.

    Args:
        region: region used in fake ARNs, DNS names and the getRegion answer.
    """

    def __init__(self, region: str = "us-east-1") -> None:
        self.region = region

    def new_resource(self, args: MockResourceArgs) -> tuple[str, dict[str, Any]]:
        """Echo the inputs and add an id (`{name}-id` unless the cloud's mock names one) and
        the outputs the cloud's provider computes (`Mock.outputs` of the cloud whose type
        prefix matches)."""
        mock = next(mock for prefix, mock in _BY_PREFIX if args.typ.startswith(prefix))
        cloud_id, extra = mock.outputs(args.typ, args.name, args.inputs, self.region)
        return cloud_id or f"{args.name}-id", {**args.inputs, **extra}

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], list]:
        """Answer invokes by token (`Mock.invoke`); unknown tokens get an empty result."""
        for mock in _MOCKS:
            answer = mock.invoke(args.token, args.args, self.region)
            if answer is not None:
                return dict(answer), []
        return {}, []


class RecordingMonitor(MockMonitor):
    """A mock monitor that records every registered resource (except the root stack).

    Each record is `{"type", "name", "parent", "protect", "inputs"}`: `parent` is the
    parent's logical name (None at the stack root) and `inputs` the deserialized
    wire-format (camelCase) inputs. `registered_outputs` maps each resource's logical
    name to the outputs it passed to `register_outputs`.
    """

    def __init__(self, mocks: pulumi.runtime.Mocks) -> None:
        super().__init__(mocks)
        self._lock = threading.Lock()
        self._records: list[dict[str, Any]] = []
        self.registered_outputs: dict[str, dict[str, Any]] = {}

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Keep the registered outputs by logical name, then answer as the mock does."""
        outputs = rpc.deserialize_properties(request.outputs, keep_internal=False)
        with self._lock:
            self.registered_outputs[request.urn.split("::")[-1]] = outputs
        return super().RegisterResourceOutputs(request)

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Record the request, then register it as `MockMonitor` does."""
        response = super().RegisterResource(request)
        if request.type != "pulumi:pulumi:Stack":
            record = {
                "type": request.type,
                "name": request.name,
                "parent": _logical_name(request.parent),
                "protect": bool(request.protect),
                "inputs": _normalized(rpc.deserialize_properties(request.object, keep_internal=False)),
            }
            with self._lock:
                self._records.append(record)
        return response

    def records(self) -> list[dict[str, Any]]:
        """The recorded resources sorted by (parent, type, name), so runs compare equal."""
        with self._lock:
            records = list(self._records)
        return sorted(records, key=_record_key)


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
