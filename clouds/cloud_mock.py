"""What a cloud's provider would report under Pulumi mocks (`Mock`, a `clouds.base.Cloud`'s
`mock` target): the answers `trainstack plan` and the review's diff run on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Mock:
    """What the cloud's provider would report under Pulumi mocks (`trainstack.plan.mocks`).

    Attributes:
        prefixes: type-token prefixes this cloud answers (`"gcp:"`); `""` marks the fallback
            cloud that answers every type no other cloud claims.
        outputs: `(type token, logical name, inputs, region) -> (id or None, extra outputs)`;
            None as id means the mock's default `<name>-id`.
        invoke: `(token, args, region, zone) -> answer or None` for invokes (image and
            subnet lookups, ...); None for a token the cloud does not answer.
        for_stack: `stack config map -> Mock` answering as that stack's provider would
            (GCP: the project of `gcp:project`); None when nothing in the config changes the
            answers beyond the region and zone.
    """

    prefixes: tuple[str, ...]
    outputs: Callable[[str, str, Mapping[str, Any], str], tuple[str | None, dict[str, Any]]]
    invoke: Callable[[str, Mapping[str, Any], str, str | None], dict[str, Any] | None] = (
        lambda token, args, region, zone: None
    )
    for_stack: Callable[[Mapping[str, Any]], Mock] | None = None

    def following(self, config: Mapping[str, Any] | None) -> Mock:
        """This mock made to follow the stack's config (`for_stack`), or itself."""
        return self.for_stack(config) if config and self.for_stack is not None else self
