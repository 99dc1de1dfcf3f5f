"""Pulumi mocks shared by `trainstack plan` and the test suite.

`TrainstackMocks` stands in for every cloud: it echoes resource inputs as outputs, adds
deterministic fake ids, ARNs, private IPs and FSx names (Azure and GCP outputs come from
`mock_clouds`), and answers invokes (AMI and subnet lookups, region, partition, GCP
project) by token, from the stack's own region and zone. An invoke nobody answers fails
the plan naming its token: a component that starts calling a new data source must get a
mocked answer here, never a silent `{}` whose fields read as None. `RecordingMonitor` also
records every RegisterResource request (with its `ignore_changes` and the old names its
aliases give it) and each component's registered outputs, so a plan can show the resource
tree and a review can diff two plans as the engine would.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

import pulumi
from pulumi.runtime.mocks import MockCallArgs, MockResourceArgs

from trainstack.mock_alicloud import ALICLOUD_INVOKES, alicloud_outputs
from trainstack.mock_baiducloud import TYPE_PREFIX as BAIDU_DYNAMIC
from trainstack.mock_baiducloud import baiducloud_outputs
from trainstack.mock_clouds import AZURE_INVOKES, GCP_INVOKES, azure_outputs, gcp_outputs
from trainstack.mock_huaweicloud import HUAWEICLOUD_INVOKES, huaweicloud_outputs
from trainstack.mock_tencentcloud import TENCENTCLOUD_INVOKES, tencentcloud_outputs
from trainstack.mock_volcengine import VOLCENGINE_INVOKES, volcengine_outputs
from trainstack.recording import RecordingMonitor  # noqa: F401  (re-exported: plan and tests use it here)

# Type-token prefix -> function(args) -> (resource id or None for `{name}-id`, extra outputs).
# Each cloud beyond AWS registers the outputs its provider would compute here.
PROVIDER_OUTPUTS: dict[str, Callable[[MockResourceArgs], tuple[str | None, dict[str, Any]]]] = {
    "azure-native:": azure_outputs,
    "tls:": azure_outputs,
    "azuread:": azure_outputs,
    "gcp:": lambda args: (None, gcp_outputs(args)),
    "alicloud:": alicloud_outputs,
    "tencentcloud:": tencentcloud_outputs,
    "huaweicloud:": huaweicloud_outputs,
    "volcengine:": volcengine_outputs,
    BAIDU_DYNAMIC: baiducloud_outputs,
}
# Invoke token -> fixed answer, for clouds beyond AWS.
INVOKES: dict[str, dict[str, Any]] = {**GCP_INVOKES, **AZURE_INVOKES}
INVOKES.update({**ALICLOUD_INVOKES, **TENCENTCLOUD_INVOKES})
INVOKES.update(HUAWEICLOUD_INVOKES)
INVOKES.update(VOLCENGINE_INVOKES)

AMI_ID = "ami-0123456789abcdef0"
AMI_NAME = "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120"
ACCOUNT_ID = "123456789012"
EXISTING_VPC_ID = "vpc-0mock0existing"
# What the mocked getSubnet lookup reports as an existing subnet's block: a /24, a common
# size for a team's existing subnet (an assumption, not a sourced figure).
EXISTING_SUBNET_CIDR = "10.20.0.0/24"

# Resource types the AWS provider autonames; the mock gives them their logical name.
_AUTONAMED = {
    "aws:ec2/placementGroup:PlacementGroup",
    "aws:ec2/securityGroup:SecurityGroup",
    "aws:ec2/launchTemplate:LaunchTemplate",
    "aws:iam/role:Role",
    "aws:iam/instanceProfile:InstanceProfile",
    "aws:autoscaling/group:Group",
}
_TRAILING_INDEX = re.compile(r"-(\d+)$")


class TrainstackMocks(pulumi.runtime.Mocks):
    """Deterministic stand-in for every cloud: same inputs always give the same outputs.

    Args:
        region: region used in fake ARNs, DNS names and the getRegion answer.
        zone: the stack's zone; subnet lookups answer it (None: the lookup names no zone).
    """

    def __init__(self, region: str = "us-east-1", zone: str | None = None) -> None:
        self.region = region
        self.zone = zone

    def new_resource(self, args: MockResourceArgs) -> tuple[str, dict[str, Any]]:
        """Echo the inputs and add an id (`{name}-id`), an ARN and type-specific outputs.

        Ids follow the logical name; a review maps a renamed resource's new ids back to its
        old ones (`trainstack.diff`), as a real aliased resource keeps its id.
        """
        resource_id = f"{args.name}-id"
        outputs = dict(args.inputs)
        for prefix, cloud_outputs in PROVIDER_OUTPUTS.items():
            if args.typ.startswith(prefix):
                cloud_id, extra = cloud_outputs(args)
                return cloud_id or resource_id, {**outputs, **extra}
        outputs["arn"] = f"arn:aws:mock:{self.region}:{ACCOUNT_ID}:{args.typ}/{args.name}"
        if args.typ in _AUTONAMED:
            outputs.setdefault("name", args.name)
        if args.typ == "aws:ec2/instance:Instance":
            outputs["privateIp"] = _private_ip(args.name)
        elif args.typ == "aws:ec2/launchTemplate:LaunchTemplate":
            outputs.update(latestVersion=1, defaultVersion=1)
        elif args.typ == "aws:fsx/lustreFileSystem:LustreFileSystem":
            outputs["dnsName"] = f"{resource_id}.fsx.{self.region}.amazonaws.com"
            outputs["mountName"] = hashlib.sha256(args.name.encode()).hexdigest()[:8]
        return resource_id, outputs

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], list]:
        """Answer invokes by token, following the stack's region and zone.

        Returns:
            `(answer, [])`; for a token nobody mocked, `({}, [(token, reason)])`, which the
            SDK raises as "invoke of TOKEN failed", so the plan stops naming the token.
        """
        answer = self._answer(args)
        if answer is None:
            return {}, [(args.token, f"no mocked answer for invoke {args.token}; add one to trainstack.mocks")]
        return answer, []

    def _answer(self, args: MockCallArgs) -> dict[str, Any] | None:
        if args.token in INVOKES:
            return _follow_lookup(dict(INVOKES[args.token]), args.args, self.zone)
        answers = {
            "aws:ec2/getAmi:getAmi": lambda: {
                "id": AMI_ID,
                "imageId": AMI_ID,
                "name": AMI_NAME,
                "architecture": _filter_value(args.args, "architecture", "x86_64"),
                "rootDeviceName": "/dev/sda1",
            },
            "aws:ec2/getSubnet:getSubnet": lambda: {
                "id": args.args.get("id", "subnet-0mock"),
                "vpcId": EXISTING_VPC_ID,
                "availabilityZoneId": self.zone,
                "cidrBlock": EXISTING_SUBNET_CIDR,
            },
            "aws:index/getRegion:getRegion": lambda: {
                "id": self.region,
                "name": self.region,
                "region": self.region,
            },
            "aws:index/getPartition:getPartition": lambda: {
                "id": _partition(self.region),
                "partition": _partition(self.region),
                "dnsSuffix": "amazonaws.com.cn" if self.region.startswith("cn-") else "amazonaws.com",
            },
            "aws:index/getCallerIdentity:getCallerIdentity": lambda: {
                "id": ACCOUNT_ID,
                "accountId": ACCOUNT_ID,
                "arn": f"arn:{_partition(self.region)}:iam::{ACCOUNT_ID}:user/mock",
                "userId": "AIDAMOCK",
            },
        }
        answer = answers.get(args.token)
        return answer() if answer else None


def _partition(region: str) -> str:
    return "aws-cn" if region.startswith("cn-") else "aws-us-gov" if region.startswith("us-gov-") else "aws"


def _filter_value(call_args: dict[str, Any], name: str, default: str) -> str:
    """The first value of the lookup filter `name` (an AMI lookup's architecture), else `default`."""
    for item in call_args.get("filters") or []:
        if isinstance(item, dict) and item.get("name") == name and item.get("values"):
            return str(item["values"][0])
    return default


def _follow_lookup(answer: dict[str, Any], call_args: dict[str, Any], zone: str | None) -> dict[str, Any]:
    """A fixed subnet answer made to follow the call: the id it asked for, the stack's zone.

    Huawei's getSubnet takes `id`; Volcengine's getSubnets takes `ids` and answers a list.
    """
    if "id" in call_args and "vpcId" in answer:
        answer.update(id=call_args["id"], availabilityZone=zone)
    if call_args.get("ids") and isinstance(answer.get("subnets"), list):
        template = answer["subnets"][0]
        answer["subnets"] = [{**template, "id": i, "subnetId": i, "zoneId": zone} for i in call_args["ids"]]
    return answer


def _private_ip(name: str) -> str:
    """10.0.x.y from a trailing node index (`c-node-3` -> 10.0.0.13), else from a hash."""
    match = _TRAILING_INDEX.search(name)
    index = int(match.group(1)) if match else int(hashlib.sha256(name.encode()).hexdigest(), 16)
    index %= 250 * 128
    return f"10.0.{index // 250}.{index % 250 + 10}"
