"""VPC, subnet and security group as Pulumi dynamic resources over bce-python-sdk.

  * `Vpc`: `VpcClient.create_vpc` / `get_vpc` / `delete_vpc` (`/v1/vpc`).
  * `Subnet`: `SubnetClient.create_subnet` / `get_subnet` / `delete_subnet` (`/v1/subnet`).
  * `SecurityGroup`: `BccClient.create_security_group` / `get_security_group_detail` /
    `delete_security_group` (`/v2/securityGroup`). Its `rules` change in place
    (`authorize_security_group_rule` / `revoke_security_group_rule`), so a new SSH CIDR never
    replaces the group, and therefore never the instances that use it. With
    `intra_group=True` the provider also allows all traffic from members of the group
    itself (the rule needs the group's own id, known only after creation).

Tags of these three are applied at creation only (`CREATE_ONLY`): the SDK offers no call to
change them later, and replacing a VPC for a tag would replace the whole cluster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
from pulumi.dynamic import CheckFailure, CreateResult, UpdateResult

from clouds.baiducloud.layout import tag_list
from components.baiducloud import api
from components.baiducloud.dynamic_base import BaiduProvider, BaiduResource, ignore_not_found
from components.baiducloud.security import intra_group_rule, world_open_ingress


class VpcProvider(BaiduProvider):
    """Dynamic provider of `Vpc`."""

    INPUTS = ("region", "name", "cidr", "description", "tags")
    REQUIRED = ("region", "name", "cidr")
    CREATE_ONLY = ("tags",)
    OUTPUTS = ("vpc_id",)

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Create the VPC."""
        client = api.vpc(props["region"])
        body = api.call(
            "CreateVpc",
            client.create_vpc,
            props["name"],
            props["cidr"],
            description=props.get("description"),
            tags=tag_list(props.get("tags")) or None,
        )
        return CreateResult(body["vpcId"], self.inputs_of(props) | {"vpc_id": body["vpcId"]})

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """The VPC's name and CIDR; gone when Baidu answers 404."""
        client = api.vpc(props["region"])

        def fetch() -> dict[str, Any]:
            vpc = api.call("GetVpc", client.get_vpc, id_).get("vpc") or {}
            live = {"name": vpc.get("name"), "cidr": vpc.get("cidr"), "vpc_id": id_}
            return self.inputs_of(props) | live

        return self.read_or_gone(id_, fetch)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Delete the VPC (it must hold nothing any more)."""
        client = api.vpc(props["region"])
        ignore_not_found(lambda: api.call("DeleteVpc", client.delete_vpc, id_))


class SubnetProvider(BaiduProvider):
    """Dynamic provider of `Subnet` (type `BCC`)."""

    INPUTS = ("region", "name", "zone", "cidr", "vpc_id", "tags")
    REQUIRED = ("region", "name", "zone", "cidr", "vpc_id")
    CREATE_ONLY = ("tags",)
    OUTPUTS = ("subnet_id",)

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Create the subnet in one zone."""
        client = api.subnets(props["region"])
        body = api.call(
            "CreateSubnet",
            client.create_subnet,
            props["name"],
            props["zone"],
            props["cidr"],
            props["vpc_id"],
            subnet_type="BCC",
            tags=tag_list(props.get("tags")) or None,
        )
        subnet_id = body["subnetId"]
        return CreateResult(subnet_id, self.inputs_of(props) | {"subnet_id": subnet_id})

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """The subnet's zone, CIDR and VPC; gone when Baidu answers 404."""
        client = api.subnets(props["region"])

        def fetch() -> dict[str, Any]:
            subnet = api.call("GetSubnet", client.get_subnet, id_).get("subnet") or {}
            live = {
                key: subnet.get(api_key)
                for key, api_key in (("name", "name"), ("zone", "zoneName"), ("cidr", "cidr"), ("vpc_id", "vpcId"))
            }
            return self.inputs_of(props) | live | {"subnet_id": id_}

        return self.read_or_gone(id_, fetch)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Delete the subnet (its instances must be released first)."""
        client = api.subnets(props["region"])
        ignore_not_found(lambda: api.call("DeleteSubnet", client.delete_subnet, id_))


class SecurityGroupProvider(BaiduProvider):
    """Dynamic provider of `SecurityGroup` (rules update in place)."""

    INPUTS = (
        "region",
        "name",
        "vpc_id",
        "subnet_id",
        "description",
        "rules",
        "intra_group",
        "tags",
    )
    REQUIRED = ("region", "name")
    UPDATABLE = ("rules",)
    CREATE_ONLY = ("tags",)
    OUTPUTS = ("security_group_id", "resolved_vpc_id")

    def extra_failures(self, news: dict[str, Any]) -> list[CheckFailure]:
        """Exactly one of vpc_id / subnet_id; no ingress rule open to the internet."""
        failures = []
        if bool(news.get("vpc_id")) == bool(news.get("subnet_id")):
            failures.append(CheckFailure("vpc_id", "set exactly one of vpc_id and subnet_id"))
        rules = news.get("rules")
        if isinstance(rules, list) and world_open_ingress(r for r in rules if isinstance(r, dict)):
            reason = "an ingress rule is open to 0.0.0.0/0 (or lacks sourceIp); narrow its source"
            failures.append(CheckFailure("rules", reason))
        return failures

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Create the group in the VPC (or the subnet's VPC), then add the intra-group rule."""
        client = api.bcc(props["region"])
        vpc_id = props.get("vpc_id") or _subnet_vpc(props["region"], props["subnet_id"])
        body = api.call(
            "CreateSecurityGroup",
            client.create_security_group,
            props["name"],
            _models(props.get("rules")),
            vpc_id=vpc_id,
            desc=props.get("description"),
            tags=_tag_models(props.get("tags")),
        )
        group_id = body["securityGroupId"]
        if props.get("intra_group"):
            _allow_members(client, group_id)
        outs = {"security_group_id": group_id, "resolved_vpc_id": vpc_id}
        return CreateResult(group_id, self.inputs_of(props) | outs)

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """The group's name and VPC (top-level fields of the official "View security group
        details" response); gone when Baidu answers 404."""
        client = api.bcc(props["region"])

        def fetch() -> dict[str, Any]:
            group = api.call("GetSecurityGroup", client.get_security_group_detail, id_)
            live = {
                "name": group.get("name", props.get("name")),
                "security_group_id": id_,
                "resolved_vpc_id": group.get("vpcId") or props.get("resolved_vpc_id"),
            }
            return self.inputs_of(props) | live

        return self.read_or_gone(id_, fetch)

    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        """Authorize the new rules, then revoke those no longer wanted (no gap in access)."""
        client = api.bcc(news["region"])
        old, new = list(olds.get("rules") or []), list(news.get("rules") or [])
        for rule in _models([r for r in new if r not in old]):
            api.call("AuthorizeSecurityGroupRule", client.authorize_security_group_rule, id_, rule)
        for rule in _models([r for r in old if r not in new]):
            api.call("RevokeSecurityGroupRule", client.revoke_security_group_rule, id_, rule)
        kept = {key: olds.get(key) for key in self.OUTPUTS}
        return UpdateResult(self.inputs_of(news) | kept)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Delete the group (no instance may use it any more)."""
        client = api.bcc(props["region"])
        ignore_not_found(lambda: api.call("DeleteSecurityGroup", client.delete_security_group, id_))


def _allow_members(client: Any, group_id: str) -> None:
    """Add the intra-group rule; if that fails, delete the new group (create is all or nothing)."""
    (rule,) = _models([intra_group_rule(group_id)])
    try:
        api.call("AuthorizeSecurityGroupRule", client.authorize_security_group_rule, group_id, rule)
    except Exception:
        ignore_not_found(lambda: api.call("DeleteSecurityGroup", client.delete_security_group, group_id))
        raise


def _subnet_vpc(region: str, subnet_id: str) -> str:
    subnet = api.call("GetSubnet", api.subnets(region).get_subnet, subnet_id).get("subnet") or {}
    return subnet["vpcId"]


def _models(rules: Sequence[Mapping[str, Any]] | None) -> list[Any]:
    from baidubce.services.bcc.bcc_model import SecurityGroupRuleModel

    return [SecurityGroupRuleModel(**dict(rule)) for rule in rules or []]


def _tag_models(tags: Mapping[str, str] | None) -> list[Any] | None:
    from baidubce.services.bcc.bcc_model import TagModel

    return [TagModel(t["tagKey"], t["tagValue"]) for t in tag_list(tags)] or None


class Vpc(BaiduResource, module="baiducloud", name="Vpc"):
    """A VPC (`pulumi-python:dynamic/baiducloud:Vpc`): `name` with an IPv4 `cidr` in `region`;
    output `vpc_id`."""

    PROVIDER = VpcProvider
    vpc_id: pulumi.Output[str]


class Subnet(BaiduResource, module="baiducloud", name="Subnet"):
    """A subnet (`pulumi-python:dynamic/baiducloud:Subnet`) of `vpc_id` in one `zone`;
    output `subnet_id`."""

    PROVIDER = SubnetProvider
    subnet_id: pulumi.Output[str]


class SecurityGroup(BaiduResource, module="baiducloud", name="SecurityGroup"):
    """A security group (`pulumi-python:dynamic/baiducloud:SecurityGroup`) in `vpc_id`, or in
    the VPC of an existing `subnet_id`; `rules` as `security.security_group_rules` makes them.

    Outputs: `security_group_id`, and `resolved_vpc_id` (the VPC it was created in).
    """

    PROVIDER = SecurityGroupProvider
    security_group_id: pulumi.Output[str]
    resolved_vpc_id: pulumi.Output[str]
