"""What AWS would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`aws_outputs` adds what the AWS provider computes beyond the inputs: ARNs, autonamed names,
instance private IPs, launch-template versions, FSx DNS and mount names. `aws_invoke`
answers the AMI, subnet, region, partition and caller-identity lookups from the stack's
region and zone. AWS is the mocks'
fallback cloud: it answers every type token no other cloud claims. All values are
deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.base import Mock
from clouds.mock_ids import digest, node_ip

AMI_ID = "ami-0123456789abcdef0"
AMI_NAME = "Deep Learning OSS Nvidia Driver AMI GPU PyTorch 2.9 (Ubuntu 24.04) 20260317"
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


def aws_outputs(typ: str, name: str, inputs: Mapping[str, Any], region: str) -> tuple[str | None, dict[str, Any]]:
    """`(None, extra outputs)`: the ARN, and the outputs the provider computes for `typ`."""
    resource_id = f"{name}-id"
    extra: dict[str, Any] = {"arn": f"arn:aws:mock:{region}:{ACCOUNT_ID}:{typ}/{name}"}
    if typ in _AUTONAMED and "name" not in inputs:
        extra["name"] = name
    if typ in ("aws:ec2/instance:Instance", "aws:ec2/networkInterface:NetworkInterface"):
        extra["privateIp"] = _private_ip(name)
    elif typ == "aws:ec2/launchTemplate:LaunchTemplate":
        extra.update(latestVersion=1, defaultVersion=1)
    elif typ == "aws:secretsmanager/secret:Secret":  # Secrets Manager appends 6 random characters
        extra["arn"] = f"arn:aws:secretsmanager:{region}:{ACCOUNT_ID}:secret:{inputs.get('name')}-{digest(name)[:6]}"
    elif typ == "aws:fsx/lustreFileSystem:LustreFileSystem":
        extra["dnsName"] = f"{resource_id}.fsx.{region}.amazonaws.com"
        extra["mountName"] = digest(name)
    return None, extra


def aws_invoke(token: str, args: Mapping[str, Any], region: str, zone: str | None) -> dict[str, Any] | None:
    """The answer to one AWS invoke, following the stack's region and zone; None for a token
    the mock does not know."""
    partition = _partition(region)
    if token == "aws:ec2/getAmi:getAmi":
        return {
            "id": AMI_ID,
            "imageId": AMI_ID,
            "name": AMI_NAME,
            "architecture": _filter_value(args, "architecture", "x86_64"),
            "rootDeviceName": "/dev/sda1",
        }
    if token == "aws:ec2/getSubnet:getSubnet":
        return {
            "id": args.get("id", "subnet-0mock"),
            "vpcId": EXISTING_VPC_ID,
            "availabilityZoneId": zone,
            "cidrBlock": EXISTING_SUBNET_CIDR,
        }
    if token == "aws:index/getRegion:getRegion":
        return {"id": region, "name": region, "region": region}
    if token == "aws:index/getPartition:getPartition":
        return {
            "id": partition,
            "partition": partition,
            "dnsSuffix": "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com",
        }
    if token == "aws:index/getCallerIdentity:getCallerIdentity":
        return {
            "id": ACCOUNT_ID,
            "accountId": ACCOUNT_ID,
            "arn": f"arn:{partition}:iam::{ACCOUNT_ID}:user/mock",
            "userId": "AIDAMOCK",
        }
    return None


def _partition(region: str) -> str:
    return "aws-cn" if region.startswith("cn-") else "aws-us-gov" if region.startswith("us-gov-") else "aws"


def _filter_value(call_args: Mapping[str, Any], name: str, default: str) -> str:
    """The first value of the lookup filter `name` (an AMI lookup's architecture), else `default`."""
    for item in call_args.get("filters") or []:
        if isinstance(item, dict) and item.get("name") == name and item.get("values"):
            return str(item["values"][0])
    return default


def _private_ip(name: str) -> str:
    """10.0.x.y from a trailing node index (`c-node-3` -> 10.0.0.13), else from a hash."""
    return node_ip(name, wrap=250 * 128)


MOCK = Mock(prefixes=("",), outputs=aws_outputs, invoke=aws_invoke)
