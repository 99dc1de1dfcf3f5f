"""Pulumi mocks shared by `trainstack plan` and the test suite.

`TrainstackMocks` stands in for every cloud: it echoes resource inputs as outputs and adds
what each cloud's provider computes (fake ids, ARNs, private IPs, file-system addresses),
and answers invokes (image and subnet lookups, region, partition, project) by token, from
the stack's own region, zone and config (GCP's `gcp:project`); the answers are each cloud's `Mock`
(`clouds/<cloud>/mock.py`, named by its `Cloud.mock`). An invoke nobody answers fails the
plan naming its token: a component that starts calling a new data source must get a mocked
answer in its cloud's mock, never a silent `{}` whose fields read as None.
`RecordingMonitor` also records every RegisterResource request (with its `ignore_changes`
and the old names its aliases give it) and each component's registered outputs, so a plan
can show the resource tree and a review can diff two plans as the engine would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulumi
from pulumi.runtime.mocks import MockCallArgs, MockResourceArgs

from clouds.base import Mock, load
from clouds.registry import CLOUDS
from trainstack.plan.recording import RecordingMonitor  # noqa: F401  (re-exported: plan and tests use it here)

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
        zone: the stack's zone; subnet lookups answer it (None: the lookup names no zone).
        config: the stack's config map (`gcp:project`, ...); each cloud's mock follows it
            (`Mock.for_stack`). None: the mocks' defaults.
    """

    def __init__(self, region: str = "us-east-1", zone: str | None = None, config: Mapping[str, Any] | None = None):
        self.region = region
        self.zone = zone
        following = {id(mock): mock.following(config) for mock in _MOCKS}
        self._by_prefix = [(prefix, following[id(mock)]) for prefix, mock in _BY_PREFIX]
        self._mocks = tuple(following[id(mock)] for mock in _MOCKS)

    def new_resource(self, args: MockResourceArgs) -> tuple[str, dict[str, Any]]:
        """Echo the inputs and add an id (`{name}-id` unless the cloud's mock names one) and
        the outputs the cloud's provider computes (`Mock.outputs` of the cloud whose type
        prefix matches).

        Ids follow the logical name; a review maps a renamed resource's new ids back to its
        old ones (`trainstack.review.diff`), as a real aliased resource keeps its id.
        """
        mock = next(mock for prefix, mock in self._by_prefix if args.typ.startswith(prefix))
        cloud_id, extra = mock.outputs(args.typ, args.name, args.inputs, self.region)
        return cloud_id or f"{args.name}-id", {**args.inputs, **extra}

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], list]:
        """Answer invokes by token (`Mock.invoke`), following the stack's region and zone.

        Returns:
            `(answer, [])`; for a token nobody mocked, `({}, [(token, reason)])`, which the
            SDK raises as "invoke of TOKEN failed", so the plan stops naming the token.
        """
        for mock in self._mocks:
            answer = mock.invoke(args.token, args.args, self.region, self.zone)
            if answer is not None:
                return dict(answer), []
        return {}, [
            (args.token, f"no mocked answer for invoke {args.token}; add one to its cloud's clouds/<cloud>/mock.py")
        ]
