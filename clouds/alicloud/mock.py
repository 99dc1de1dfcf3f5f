"""What Alibaba Cloud would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`alicloud_outputs(typ, name, inputs)` returns `(id, extra outputs)` the real `pulumi_alicloud` provider
computes: prefixed resource ids (`vpc-`, `vsw-`, `sg-`, `ds-`, `i-`, `cpfs-`, `asg-` for an ESS
scaling group, `asc-` for its scaling configuration, the prefixes of ESS's DescribeScalingGroups /
DescribeScalingConfigurations examples), instance private IPs, and the CPFS
mount-target domain. `ALICLOUD_INVOKES` answers the system-image
lookup. All values are deterministic: the same logical name always gives the same value.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from clouds.base import Mock
from clouds.mock_answers import fixed_answers
from clouds.mock_ids import digest, node_ip, prefixed_id

ALICLOUD_IMAGE_ID = "ubuntu_22_04_x64_20G_alibase_20261120.vhd"
# The mock's region in mount-target domains (`<fs>-<hash>.cn-beijing.cpfs.nas.aliyuncs.com`,
# the shape of `MountTargetDomain` in Alibaba's ListCpfsFileSystems API example).
ALICLOUD_MOCK_REGION = "cn-beijing"

# alicloud type token -> id prefix of the real resource.
_ID_PREFIXES = {
    "alicloud:vpc/network:Network": "vpc",
    "alicloud:vpc/switch:Switch": "vsw",
    "alicloud:ecs/securityGroup:SecurityGroup": "sg",
    "alicloud:ecs/securityGroupRule:SecurityGroupRule": "sgr",
    "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet": "ds",
    "alicloud:ecs/ecsKeyPair:EcsKeyPair": "kp",
    "alicloud:ecs/instance:Instance": "i",
    "alicloud:nas/fileSystem:FileSystem": "cpfs",
    "alicloud:ess/scalingGroup:ScalingGroup": "asg",
    "alicloud:ess/scalingConfiguration:ScalingConfiguration": "asc",
    "alicloud:nas/fileset:Fileset": "fset",
    "alicloud:nas/dataFlow:DataFlow": "df",
    "alicloud:eflo/vpd:Vpd": "vpd",
    "alicloud:eflo/node:Node": "e01-cn",
}
# Lingjun ids as the eflo-controller API reference's examples spell them: a cluster or node
# group `i` and 21 digits (`i118976621753269898628`); a subnet `subnet-...`. The provider's
# ids of a subnet and a node group join the parent's (`<vpd_id>:<subnet_id>`,
# `<cluster_id>:<node_group_id>`, their import docs).
_LINGJUN_IDS = ("alicloud:eflo/cluster:Cluster", "alicloud:eflo/nodeGroup:NodeGroup")


def _lingjun_number(name: str) -> str:
    return "i" + str(int(digest(name, 16), 16))[:21].rjust(21, "1")


# `(type, name) -> id`: `<prefix>-<8 hex of sha256(name)>` (`i-1a2b3c4d`).
alicloud_id = partial(prefixed_id, _ID_PREFIXES)
# `name -> 10.0.x.y` in the /20 node subnet, from a trailing node index (`c-node-3` -> 10.0.0.13).
node_private_ip = partial(node_ip, wrap=250 * 16, hash_chars=8)


def mount_target_domain(file_system_id: str) -> str:
    """The mount-target domain of a CPFS file system (ListCpfsFileSystems example shape)."""
    return f"{file_system_id}-{digest(file_system_id, 4)}.{ALICLOUD_MOCK_REGION}.cpfs.nas.aliyuncs.com"


def alicloud_outputs(
    typ: str, name: str, inputs: Mapping[str, Any], region: str = ""
) -> tuple[str | None, dict[str, Any]]:
    """Id and computed outputs of one `pulumi_alicloud` resource."""
    resource_id = alicloud_id(typ, name)
    outputs: dict[str, Any] = {}
    if typ == "alicloud:ecs/instance:Instance":
        outputs = {"privateIp": node_private_ip(name), "status": "Running"}
    elif typ == "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet":
        outputs = {"deploymentSetGroupNo": 1}
    elif typ == "alicloud:nas/mountTarget:MountTarget":
        domain = mount_target_domain(str(inputs.get("fileSystemId")))
        resource_id = f"{inputs.get('fileSystemId')}:{domain}"
        outputs = {"mountTargetDomain": domain, "status": "Active"}
    elif typ == "alicloud:nas/fileset:Fileset":
        outputs = {"filesetId": resource_id, "status": "CREATED"}
    elif typ == "alicloud:nas/dataFlow:DataFlow":
        outputs = {"dataFlowId": resource_id, "status": "Running"}
    elif typ == "alicloud:eflo/subnet:Subnet":
        subnet = f"subnet-{digest(name)}"
        resource_id, outputs = f"{inputs.get('vpdId')}:{subnet}", {"subnetId": subnet, "status": "Available"}
    elif typ in _LINGJUN_IDS:
        number = _lingjun_number(name)
        if typ.endswith("Cluster"):
            resource_id, outputs = number, {"status": "running"}
        else:
            resource_id, outputs = f"{inputs.get('clusterId')}:{number}", {"nodeGroupId": number}
    elif typ == "alicloud:vpc/network:Network":
        outputs = {"routeTableId": f"vtb-{digest(name)}", "routerId": f"vrt-{digest(name)}"}
    return resource_id, outputs


ALICLOUD_INVOKES: dict[str, dict[str, Any]] = {
    "alicloud:ecs/getImages:getImages": {"id": "mock-images", "ids": [ALICLOUD_IMAGE_ID]},
}

_fixed = fixed_answers(ALICLOUD_INVOKES)


def alicloud_invoke(token: str, args: Mapping[str, Any], region: str, zone: str | None) -> dict[str, Any] | None:
    """The fixed answers, and `oss.get_buckets` by exact name: one bucket as a data flow needs it
    (in the stack's region, tagged `cpfs-dataflow: true`), the shape of the data source's `buckets`."""
    if token != "alicloud:oss/getBuckets:getBuckets":
        return _fixed(token, args, region, zone)
    name = str(args.get("nameRegex", "")).strip("^$").replace("\\", "")
    bucket = {"name": name, "location": f"oss-{region or ALICLOUD_MOCK_REGION}", "tags": {"cpfs-dataflow": "true"}}
    return {"id": "mock-buckets", "names": [name], "buckets": [bucket]}


MOCK = Mock(
    prefixes=("alicloud:",),
    outputs=alicloud_outputs,
    invoke=alicloud_invoke,
)
