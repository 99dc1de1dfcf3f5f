"""What Huawei Cloud would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`huaweicloud_outputs` returns `(id, extra outputs)` for pulumi_huaweicloud resources: a
UUID-shaped id (Huawei ids are UUIDs), the name (Pulumi would autoname it), each ECS node's
private IPv4 and the SFS Turbo export location. `HUAWEICLOUD_INVOKES` answers the image
and subnet lookups. Every value is deterministic: the same name always gives the same id.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from clouds.base import Mock
from clouds.mock_answers import fixed_answers
from clouds.mock_ids import node_ip

_NAMESPACE = uuid.UUID("8f1d7a52-3c1e-4d8e-9b7a-6a0c2f4e5d10")
IMAGE_ID = "1f6b3c1e-0000-4000-8000-000000002204"
IMAGE_NAME = "Ubuntu 22.04 server 64bit"
EXISTING_SUBNET_ID = "5e8c7f00-0000-4000-8000-00000000e51d"
EXISTING_VPC_ID = "5e8c7f00-0000-4000-8000-0000000000bc"
SFS_TURBO_HOST = "10.0.15.250"
SFS_TURBO_EXPORT = f"{SFS_TURBO_HOST}:/"


def mock_id(typ: str, name: str) -> str:
    """The deterministic UUID the mock gives resource `name` of type `typ`."""
    return str(uuid.uuid5(_NAMESPACE, f"{typ}/{name}"))


def huaweicloud_outputs(typ: str, name: str, inputs: Mapping[str, Any], region: str = "") -> tuple[str, dict[str, Any]]:
    """Id and computed outputs of one pulumi_huaweicloud resource."""
    resource_id = mock_id(typ, name)
    outputs: dict[str, Any] = {"id": resource_id, "name": inputs.get("name", name)}
    if typ == "huaweicloud:Ecs/instance:Instance":
        ip = node_ip(name)
        outputs["accessIpV4"] = ip
        outputs["networks"] = [{**network, "fixedIpV4": ip} for network in inputs.get("networks", [])]
    elif typ == "huaweicloud:Sfs/turbo:Turbo":
        outputs["exportLocation"] = SFS_TURBO_EXPORT
        outputs["status"] = "200"
    return resource_id, outputs


HUAWEICLOUD_INVOKES: dict[str, dict[str, Any]] = {
    "huaweicloud:Ims/getImage:getImage": {
        "id": IMAGE_ID,
        "imageId": IMAGE_ID,
        "name": IMAGE_NAME,
        "visibility": "public",
        "os": "Ubuntu",
        "architecture": "x86",
    },
    "huaweicloud:Vpc/getSubnet:getSubnet": {
        "id": EXISTING_SUBNET_ID,
        "vpcId": EXISTING_VPC_ID,
        "cidr": "10.1.0.0/20",
    },
}

MOCK = Mock(
    prefixes=("huaweicloud:",),
    outputs=huaweicloud_outputs,
    invoke=fixed_answers(HUAWEICLOUD_INVOKES),
)
