"""What Volcengine would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`volcengine_outputs` returns `(id, extra outputs)` for pulumi_volcengine resources: an id
with a per-type prefix plus 12 hex digits of a SHA-256 of the name (the prefixes are mock
conventions, not Volcengine's), each node's primary private IPv4, and the vePFS mount
attachment's default `customer_path` (the file-system id, as its doc says).
`VOLCENGINE_INVOKES` answers the image and subnet lookups. Everything is deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.base import Mock
from clouds.mock_answers import fixed_answers
from clouds.mock_ids import digest, node_ip

IMAGE_ID = "image-ubuntu2204mock"
IMAGE_NAME = "Ubuntu 22.04 64 bit"
EXISTING_SUBNET_ID = "subnet-existingmock"
EXISTING_VPC_ID = "vpc-existingmock"

# type token -> id prefix (mock convention).
_PREFIXES = {
    "volcengine:vpc/vpc:Vpc": "vpc",
    "volcengine:vpc/subnet:Subnet": "subnet",
    "volcengine:vpc/securityGroup:SecurityGroup": "sg",
    "volcengine:vpc/securityGroupRule:SecurityGroupRule": "sgrule",
    "volcengine:ecs/instance:Instance": "i",
    "volcengine:ecs/deploymentSet:DeploymentSet": "dps",
    "volcengine:ecs/hpcCluster:HpcCluster": "hpcCluster",
    # The shapes of the terraform provider's import examples (scg-mizl7m1kqccg5smt1bdpijuj).
    "volcengine:autoscaling/scalingGroup:ScalingGroup": "scg",
    "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration": "scc",
    "volcengine:ecs/keyPair:KeyPair": "kp",
    "volcengine:vepfs/fileSystem:FileSystem": "vepfs",
    "volcengine:vepfs/mountService:MountService": "mount",
}


def mock_id(typ: str, name: str) -> str:
    """The deterministic id the mock gives resource `name` of type `typ`."""
    return f"{_PREFIXES.get(typ, 'res')}-{digest(f'{typ}/{name}', 12)}"


def volcengine_outputs(typ: str, name: str, inputs: Mapping[str, Any], region: str = "") -> tuple[str, dict[str, Any]]:
    """Id and computed outputs of one pulumi_volcengine resource."""
    if typ == "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment":
        # Imported as `mount_service_id:file_system_id` (its doc), so that is its id.
        fs_id = inputs["fileSystemId"]
        resource_id = f"{inputs['mountServiceId']}:{fs_id}"
        path = inputs.get("customerPath", fs_id)
        return resource_id, {"id": resource_id, "customerPath": path}
    resource_id = mock_id(typ, name)
    outputs: dict[str, Any] = {"id": resource_id}
    if typ == "volcengine:ecs/instance:Instance":
        outputs.update(instanceId=resource_id, primaryIpAddress=node_ip(name))
    elif typ == "volcengine:ecs/keyPair:KeyPair":
        outputs["keyPairId"] = resource_id
    elif typ == "volcengine:vepfs/fileSystem:FileSystem":
        outputs.update(status="Running", protocolType="VePFS")
    return resource_id, outputs


VOLCENGINE_INVOKES: dict[str, dict[str, Any]] = {
    "volcengine:ecs/getImages:getImages": {
        "id": "images",
        "images": [
            {
                "imageId": IMAGE_ID,
                "imageName": IMAGE_NAME,
                "osType": "Linux",
                "visibility": "public",
                "createdAt": "2026-10-01T00:00:00+08:00",
            }
        ],
        "totalCount": 1,
    },
    "volcengine:vpc/getSubnets:getSubnets": {
        "id": "subnets",
        "subnets": [{"id": EXISTING_SUBNET_ID, "subnetId": EXISTING_SUBNET_ID, "vpcId": EXISTING_VPC_ID}],
        "totalCount": 1,
    },
}

MOCK = Mock(
    prefixes=("volcengine:",),
    outputs=volcengine_outputs,
    invoke=fixed_answers(VOLCENGINE_INVOKES),
)
