"""`TiOnePool`: what a `platform: ti-one` stack holds: the stack's TI-ONE training resource group,
a Pulumi dynamic resource over the TI-ONE API (`CreateBillingResourceGroup`,
`DeleteBillingResourceGroup`), signed TC3-HMAC-SHA256 by `tencentcloud-sdk-python-common`'s
`CommonClient` as `trainstack.run.ti_one` signs its tasks.

Why a dynamic resource: tencentcloud-iac-pulumi 0.2 has no TI-ONE resource. The group is created
empty and protected (the prepaid nodes bought into it in the TI-ONE console are the team's);
TI-ONE refuses to delete a group whose nodes are deploying, running or releasing. The tasks
`trainstack run` submits are pay-as-you-go and need no node of it. Request bodies come from
`clouds.tencentcloud.tione`. Credentials: `TENCENTCLOUD_SECRET_ID`, `TENCENTCLOUD_SECRET_KEY`.
"""

from __future__ import annotations

import os
from typing import Any

import pulumi
from pulumi.dynamic import CreateResult, DiffResult, ResourceProvider

from clouds.contract import ClusterConfig
from clouds.tencentcloud import tione
from components.cluster_base import ClusterOutputs, GpuClusterBase, pool_outputs, protected

TYPE_TOKEN = "trainstack:tencentcloud:TiOnePool"


def call(region: str, action: str, params: dict[str, Any]) -> dict[str, Any]:
    """One TI-ONE API call in `region`; its `Response`.

    Raises:
        RuntimeError: no credentials in the environment, or an answer without the expected body.
        TencentCloudSDKException: the API's error (code and message).
    """
    from tencentcloud.common.common_client import CommonClient
    from tencentcloud.common.credential import Credential

    key_id, key = os.environ.get("TENCENTCLOUD_SECRET_ID"), os.environ.get("TENCENTCLOUD_SECRET_KEY")
    if not key_id or not key:
        raise RuntimeError("credentials: set TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY")
    client = CommonClient("tione", tione.API_VERSION, Credential(key_id, key), region)
    answer = client.call_json(action, params).get("Response")
    if not isinstance(answer, dict):
        raise RuntimeError(f"TI-ONE {action} answered without a Response: {str(answer)[:200]}")
    return answer


class TiOneResourceGroupProvider(ResourceProvider):
    """Create / delete the training resource group. A new name or region replaces it (TI-ONE
    deletes the old one only once its nodes are released); tags are set at creation only."""

    def create(self, props: dict[str, Any]) -> CreateResult:
        """`CreateBillingResourceGroup`; the id is the answer's `ResourceGroupId`."""
        answer = call(props["region"], "CreateBillingResourceGroup", props["request"])
        group_id = answer.get("ResourceGroupId")
        if not group_id:
            raise RuntimeError(f"TI-ONE CreateBillingResourceGroup answered without a ResourceGroupId: {answer}")
        return CreateResult(str(group_id), {**props, "resource_group_id": str(group_id)})

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        """Only the region or the group's `Name` / `Type` replace it; a tag change does nothing."""
        changed = [key for key in ("region", "name") if olds.get(key) != news.get(key)]
        if (olds.get("request") or {}).get("Type") != (news.get("request") or {}).get("Type"):
            changed.append("request")
        return DiffResult(changes=bool(changed), replaces=changed, delete_before_replace=True)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """`DeleteBillingResourceGroup` (refused by TI-ONE while the group's nodes are in use)."""
        call(props["region"], "DeleteBillingResourceGroup", {"ResourceGroupId": id_})


class TiOneResourceGroup(pulumi.dynamic.Resource, module="tencentcloud", name="TiOneResourceGroup"):
    """A TI-ONE resource group (`pulumi-python:dynamic/tencentcloud:TiOneResourceGroup`)."""

    resource_group_id: pulumi.Output[str]

    def __init__(
        self, name: str, region: str, request: dict, tags: Any, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        """`request` the `CreateBillingResourceGroup` parameters (its `TagSet` from `tags`, the
        cost tags the policy pack reads from `tags`)."""
        props = {"region": region, "name": request["Name"], "request": request, "tags": tags, "resource_group_id": None}
        super().__init__(TiOneResourceGroupProvider(), name, props, opts)


class TiOnePool(GpuClusterBase):
    """The stack's TI-ONE training resource group (no node of trainstack's).

    Public outputs (`OUTPUT_NAMES`): `node_ids` and `node_private_ips` `[]`, `placement_group`
    and the file-system pair None. Extra outputs: `resource_group_id`, `resource_group_name`.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "tencentcloud"

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's checks (`clouds.tencentcloud.tione.validate_pool`, as `plan` runs them)."""
        tione.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the resource group; return the outputs (see the class docstring)."""
        request = tione.group_request(name, {str(k): str(v) for k, v in dict(tags).items()})
        self.group = TiOneResourceGroup(f"{name}-tione-group", args.region, request, tags, protected(child))
        self.resource_group_id = self.group.resource_group_id
        self.resource_group_name = pulumi.Output.from_input(request["Name"])
        return pool_outputs()

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The group prepaid TI-ONE nodes are bought into."""
        return {"resource_group_id": self.resource_group_id, "resource_group_name": self.resource_group_name}
