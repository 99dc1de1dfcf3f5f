"""Fixed invoke answers for a cloud's `Mock` (`clouds.base.Mock.invoke`), made to follow the
call: the clouds whose plan mocks answer lookups from a table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def fixed_answers(answers: Mapping[str, Mapping[str, Any]]) -> Callable[..., dict[str, Any] | None]:
    """A `Mock.invoke` from fixed answers by token, each made to follow the call
    (`follow_lookup`)."""

    def invoke(token: str, args: Mapping[str, Any], region: str, zone: str | None) -> dict[str, Any] | None:
        answer = answers.get(token)
        return None if answer is None else follow_lookup(dict(answer), args, zone)

    return invoke


def follow_lookup(answer: dict[str, Any], call_args: Mapping[str, Any], zone: str | None) -> dict[str, Any]:
    """A fixed subnet answer made to follow the call: the id it asked for, the stack's zone.

    A lookup by `id` (Huawei's getSubnet) answers that id in `zone`; one by `ids`
    (Volcengine's getSubnets) answers a list with one subnet per id.
    """
    if "id" in call_args and "vpcId" in answer:
        answer.update(id=call_args["id"], availabilityZone=zone)
    if call_args.get("ids") and isinstance(answer.get("subnets"), list):
        template = answer["subnets"][0]
        answer["subnets"] = [{**template, "id": i, "subnetId": i, "zoneId": zone} for i in call_args["ids"]]
    return answer
