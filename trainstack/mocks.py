"""Pulumi mocks shared by `trainstack plan` and the test suite.

`TrainstackMocks` stands in for every cloud: it echoes resource inputs as outputs, adds
deterministic fake ids, ARNs, private IPs and FSx names (Azure and GCP outputs come from
`mock_clouds`), and answers invokes (AMI and subnet lookups, region, partition, GCP
project) by token. `RecordingMonitor` also records every RegisterResource request and each
component's registered outputs, so a plan can show the resource tree.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from typing import Any

import pulumi
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockCallArgs, MockMonitor, MockResourceArgs

from trainstack.mock_clouds import GCP_INVOKES, azure_outputs, gcp_outputs
from trainstack.mock_alicloud import ALICLOUD_INVOKES, alicloud_outputs
from trainstack.mock_tencentcloud import TENCENTCLOUD_INVOKES, tencentcloud_outputs
from trainstack.mock_huaweicloud import HUAWEICLOUD_INVOKES, huaweicloud_outputs
from trainstack.mock_volcengine import VOLCENGINE_INVOKES, volcengine_outputs
from trainstack.mock_baiducloud import TYPE_PREFIX as BAIDU_DYNAMIC, baiducloud_outputs

# Type-token prefix -> function(args) -> (resource id or None for `{name}-id`, extra outputs).
# Each cloud beyond AWS registers the outputs its provider would compute here.
PROVIDER_OUTPUTS: dict[str, Callable[[MockResourceArgs], tuple[str | None, dict[str, Any]]]] = {
    "azure-native:": azure_outputs,
    "tls:": azure_outputs,
    "gcp:": lambda args: (None, gcp_outputs(args)),
    "alicloud:": alicloud_outputs,
    "tencentcloud:": tencentcloud_outputs,
    "huaweicloud:": huaweicloud_outputs,
    "volcengine:": volcengine_outputs,
    BAIDU_DYNAMIC: baiducloud_outputs,
}
# Invoke token -> fixed answer, for clouds beyond AWS.
INVOKES: dict[str, dict[str, Any]] = {**GCP_INVOKES}
INVOKES.update({**ALICLOUD_INVOKES, **TENCENTCLOUD_INVOKES})
INVOKES.update(HUAWEICLOUD_INVOKES)
INVOKES.update(VOLCENGINE_INVOKES)

AMI_ID = "ami-0123456789abcdef0"
AMI_NAME = "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120"
ACCOUNT_ID = "123456789012"
EXISTING_VPC_ID = "vpc-0mock0existing"

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
    """

    def __init__(self, region: str = "us-east-1") -> None:
        self.region = region

    def new_resource(self, args: MockResourceArgs) -> tuple[str, dict[str, Any]]:
        """Echo the inputs and add an id (`{name}-id`), an ARN and type-specific outputs."""
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
        """Answer invokes by token; unknown tokens get an empty result."""
        if args.token in INVOKES:
            return dict(INVOKES[args.token]), []
        answers = {
            "aws:ec2/getAmi:getAmi": lambda: {
                "id": AMI_ID,
                "imageId": AMI_ID,
                "name": AMI_NAME,
                "architecture": "x86_64",
                "rootDeviceName": "/dev/sda1",
            },
            "aws:ec2/getSubnet:getSubnet": lambda: {
                "id": args.args.get("id", "subnet-0mock"),
                "vpcId": EXISTING_VPC_ID,
                "availabilityZoneId": "use1-az4",
            },
            "aws:index/getRegion:getRegion": lambda: {
                "id": self.region,
                "name": self.region,
                "region": self.region,
            },
            "aws:index/getPartition:getPartition": lambda: {
                "id": "aws",
                "partition": "aws",
                "dnsSuffix": "amazonaws.com",
            },
            "aws:index/getCallerIdentity:getCallerIdentity": lambda: {
                "id": ACCOUNT_ID,
                "accountId": ACCOUNT_ID,
                "arn": f"arn:aws:iam::{ACCOUNT_ID}:user/mock",
                "userId": "AIDAMOCK",
            },
        }
        answer = answers.get(args.token)
        return (answer() if answer else {}), []


def _private_ip(name: str) -> str:
    """10.0.x.y from a trailing node index (`c-node-3` -> 10.0.0.13), else from a hash."""
    match = _TRAILING_INDEX.search(name)
    index = int(match.group(1)) if match else int(hashlib.sha256(name.encode()).hexdigest(), 16)
    index %= 250 * 128
    return f"10.0.{index // 250}.{index % 250 + 10}"


class RecordingMonitor(MockMonitor):
    """A mock monitor that records every registered resource (except the root stack).

    Each record is `{"type", "name", "parent", "protect", "inputs"}`: `parent` is the
    parent's logical name (None at the stack root) and `inputs` the deserialized
    wire-format (camelCase) inputs. `registered_outputs` maps each resource's logical
    name to the outputs it passed to `register_outputs`.
    """

    def __init__(self, mocks: pulumi.runtime.Mocks) -> None:
        super().__init__(mocks)
        self._lock = threading.Lock()
        self._records: list[dict[str, Any]] = []
        self.registered_outputs: dict[str, dict[str, Any]] = {}

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Keep the registered outputs by logical name, then answer as the mock does."""
        outputs = rpc.deserialize_properties(request.outputs, keep_internal=False)
        with self._lock:
            self.registered_outputs[request.urn.split("::")[-1]] = outputs
        return super().RegisterResourceOutputs(request)

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        """Record the request, then register it as `MockMonitor` does."""
        response = super().RegisterResource(request)
        if request.type != "pulumi:pulumi:Stack":
            record = {
                "type": request.type,
                "name": request.name,
                "parent": _logical_name(request.parent),
                "protect": bool(request.protect),
                "inputs": _normalized(rpc.deserialize_properties(request.object, keep_internal=False)),
            }
            with self._lock:
                self._records.append(record)
        return response

    def records(self) -> list[dict[str, Any]]:
        """The recorded resources sorted by (parent, type, name), so runs compare equal."""
        with self._lock:
            records = list(self._records)
        return sorted(records, key=_record_key)


def _logical_name(urn: str) -> str | None:
    if not urn:
        return None
    parts = urn.split("::")
    if parts[2].split("$")[-1] == "pulumi:pulumi:Stack":
        return None
    return parts[-1]


def _normalized(value: Any) -> Any:
    """Sort mapping keys and turn integral floats (protobuf numbers) back into ints."""
    if isinstance(value, dict):
        return {key: _normalized(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_normalized(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _record_key(record: dict[str, Any]) -> tuple:
    natural = [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", record["name"])]
    return (record["parent"] is not None, record["parent"] or "", record["type"], natural)
