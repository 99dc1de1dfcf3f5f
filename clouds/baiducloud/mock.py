"""What the Baidu dynamic providers would report for a resource, for `TrainstackMocks`.

Under Pulumi mocks a dynamic resource registers with type
`pulumi-python:dynamic/<module>:<Name>` (here `pulumi-python:dynamic/baiducloud:BccInstance`
and friends, see `components.baiducloud`) and its provider never runs, so the outputs the
provider would compute are filled here: Baidu-style ids (`i-`, `vpc-`, `sbn-`, `g-`,
`dset-`, `ehc-`, `k-`), node private IPs from the node index, `Running` status. All values
derive from the resource name, so the same program always gives the same outputs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from clouds.base import Mock

TYPE_PREFIX = "pulumi-python:dynamic/baiducloud:"
MOCK_IMAGE_ID = "m-mockgpuubuntu2204"
# resource name -> (id prefix, id output name)
_IDS = {
    "BccInstance": ("i", "instance_id"),
    "Vpc": ("vpc", "vpc_id"),
    "Subnet": ("sbn", "subnet_id"),
    "SecurityGroup": ("g", "security_group_id"),
    "DeploySet": ("dset", "deploy_set_id"),
    "EhcCluster": ("ehc", "ehc_cluster_id"),
    "Keypair": ("k", "keypair_id"),
}
_TRAILING_INDEX = re.compile(r"-(\d+)$")


def baiducloud_outputs(
    typ: str, name: str, inputs: Mapping[str, Any], region: str = ""
) -> tuple[str | None, dict[str, Any]]:
    """`(id, outputs)` of one Baidu dynamic resource; other types get `(None, {})`."""
    kind = typ.removeprefix(TYPE_PREFIX)
    if kind not in _IDS:
        return None, {}
    prefix, id_output = _IDS[kind]
    resource_id = f"{prefix}-{_short(name)}"
    outputs: dict[str, Any] = {id_output: resource_id}
    if kind == "BccInstance":
        outputs.update(
            internal_ip=_node_ip(name),
            status="Running",
            payment_timing="Postpaid",
            boot_image_id=inputs.get("image_id") or MOCK_IMAGE_ID,
        )
    elif kind == "SecurityGroup":
        outputs["resolved_vpc_id"] = inputs.get("vpc_id") or "vpc-mockexisting"
    return resource_id, outputs


def _short(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:8]


def _node_ip(name: str) -> str:
    """10.0.x.y inside the node subnet 10.0.0.0/20 from a trailing node index."""
    match = _TRAILING_INDEX.search(name)
    index = int(match.group(1)) if match else int(_short(name), 16) % 4000
    return f"10.0.{index // 250}.{index % 250 + 10}"


MOCK = Mock(
    prefixes=(TYPE_PREFIX,),
    outputs=baiducloud_outputs,
)
