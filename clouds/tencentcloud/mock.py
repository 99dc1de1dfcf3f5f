"""What Tencent Cloud would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`tencentcloud_outputs(typ, name, inputs)` returns `(id, extra outputs)` the real
`tencentcloud_iac_pulumi` provider computes: prefixed resource ids (`vpc-`, `subnet-`,
`sg-`, `ps-`, `hpc-`, `ins-`, `asc-`, `asg-`, `ccn-`, `pgroup-`, `cfs-`), CVM private IPs and the CFS Turbo
mount IP and mount root (`fsId`). `TENCENTCLOUD_INVOKES` answers the public-image lookup.
All values are deterministic: the same logical name always gives the same value.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from functools import partial
from typing import Any

from clouds.base import Mock
from clouds.mock_answers import fixed_answers
from clouds.mock_ids import digest, node_ip, prefixed_id

TENCENT_IMAGE_ID = "img-mock2204"
TENCENT_IMAGE_NAME = "Ubuntu Server 22.04 LTS 64bit"

# tencentcloud type token -> id prefix of the real resource.
_ID_PREFIXES = {
    "tencentcloud:Vpc/instance:Instance": "vpc",
    "tencentcloud:Subnet/instance:Instance": "subnet",
    "tencentcloud:Security/group:Group": "sg",
    "tencentcloud:Placement/group:Group": "ps",
    "tencentcloud:Cvm/hpcCluster:HpcCluster": "hpc",
    "tencentcloud:Key/pair:Pair": "skey",
    "tencentcloud:Instance/instance:Instance": "ins",
    # The shapes of the terraform provider's import examples (asc-n32ymck2, asg-...).
    "tencentcloud:As/scalingConfig:ScalingConfig": "asc",
    "tencentcloud:As/scalingGroup:ScalingGroup": "asg",
    "tencentcloud:Ccn/instance:Instance": "ccn",
    "tencentcloud:Cfs/accessGroup:AccessGroup": "pgroup",
    "tencentcloud:Cfs/fileSystem:FileSystem": "cfs",
}


# `(type, name) -> id`: `<prefix>-<8 hex of sha256(name)>` (`ins-1a2b3c4d`).
tencentcloud_id = partial(prefixed_id, _ID_PREFIXES)
# `name -> 10.0.x.y` in the /20 node subnet, from a trailing node index (`c-node-3` -> 10.0.0.13).
cvm_private_ip = partial(node_ip, wrap=250 * 16, hash_chars=8)


def turbo_mount_ip(cidr_block: str) -> str:
    """The CFS Turbo mount IP: the fourth address of its CCN CIDR block."""
    return str(ipaddress.ip_network(cidr_block, strict=False).network_address + 4)


def tencentcloud_outputs(
    typ: str, name: str, inputs: Mapping[str, Any], region: str = ""
) -> tuple[str | None, dict[str, Any]]:
    """Id and computed outputs of one `tencentcloud_iac_pulumi` resource."""
    resource_id = tencentcloud_id(typ, name)
    outputs: dict[str, Any] = {}
    if typ == "tencentcloud:Instance/instance:Instance":
        outputs = {"privateIp": cvm_private_ip(name), "instanceStatus": "RUNNING"}
    elif typ == "tencentcloud:Cfs/fileSystem:FileSystem":
        outputs = {
            "mountIp": turbo_mount_ip(str(inputs.get("cidrBlock", "10.1.0.0/24"))),
            "fsId": digest(name),
        }
    elif typ == "tencentcloud:Cfs/accessRule:AccessRule":
        resource_id = f"rule-{digest(name)}"
    return resource_id, outputs


TENCENTCLOUD_INVOKES: dict[str, dict[str, Any]] = {
    "tencentcloud:Images/getInstance:getInstance": {
        "id": "mock-images",
        "images": [
            {
                "architecture": "x86_64",
                "createdTime": "2026-11-20T00:00:00Z",
                "imageCreator": "",
                "imageDescription": TENCENT_IMAGE_NAME,
                "imageId": TENCENT_IMAGE_ID,
                "imageName": TENCENT_IMAGE_NAME,
                "imageSize": 20,
                "imageSource": "OFFICIAL",
                "imageState": "NORMAL",
                "imageType": "PUBLIC_IMAGE",
                "osName": "Ubuntu Server 22.04 LTS 64bit",
                "platform": "Ubuntu",
                "snapshots": [],
                "supportCloudInit": True,
                "syncPercent": 100,
            }
        ],
    },
}

MOCK = Mock(
    prefixes=("tencentcloud:",),
    outputs=tencentcloud_outputs,
    invoke=fixed_answers(TENCENTCLOUD_INVOKES),
)
