"""`pulumi destroy` deletes a resource only after everything that depends on it, so each
cloud's known teardown blockers are met when the blocked resource depends on what holds it.
Checked on every committed AWS, Azure and GCP stack, with a job and a data link added (so the
head, its address and the link's roles are there too), from the dependencies the component
registers (inputs and `depends_on`), followed transitively.

The blockers (what each cloud refuses to delete while something still uses it):
- AWS: a security group or subnet while FSx's network interfaces use them (FSx for Lustre user
  guide, "File system access control with Amazon VPC"; DependencyViolation); a file system
  while a data repository association is linked to it; the head's ENI while the instance holds it;
  the launch template and subnet while the Auto Scaling group uses them.
- Azure: a subnet in use by NICs (the scale set, AMLFS: "InUseSubnetCannotBeDeleted"), a NAT
  gateway associated with a subnet; the AMLFS resource provider's roles must outlive the file
  system, the nodes' identity its role assignment (an orphaned assignment stays behind otherwise).
- GCP: the private-services connection while Filestore / Managed Lustre use it; it also fails
  after they are gone ("Producer services ... are still using this connection",
  pulumi/pulumi-gcp#3354, hashicorp/terraform-provider-google#16275), so it is ABANDONed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from clouds.base import load
from clouds.registry import CLOUDS
from profiles.stack.file import validate_cluster
from tests.components import harness

ROOT = Path(__file__).resolve().parents[2]
# cloud -> (dependent type, what it must depend on, why): the dependent is deleted first
BLOCKERS: dict[str, list[tuple[str, str, str]]] = {
    "aws": [
        ("aws:fsx/lustreFileSystem:LustreFileSystem", "aws:ec2/securityGroup:SecurityGroup", "FSx ENIs hold the SG"),
        ("aws:fsx/lustreFileSystem:LustreFileSystem", "aws:ec2/subnet:Subnet", "FSx ENIs sit in the subnet"),
        (
            "aws:fsx/dataRepositoryAssociation:DataRepositoryAssociation",
            "aws:fsx/lustreFileSystem:LustreFileSystem",
            "a linked FS",
        ),
        ("aws:ec2/instance:Instance", "aws:ec2/networkInterface:NetworkInterface", "the head holds its ENI"),
        ("aws:autoscaling/group:Group", "aws:ec2/launchTemplate:LaunchTemplate", "the group launches from it"),
        ("aws:autoscaling/group:Group", "aws:ec2/securityGroup:SecurityGroup", "its nodes' ENIs hold the SG"),
    ],
    "azure": [
        ("azure-native:compute:VirtualMachineScaleSet", "azure-native:network:Subnet", "its NICs use the subnet"),
        ("azure-native:storagecache:AmlFilesystem", "azure-native:network:Subnet", "AMLFS uses its subnet"),
        ("azure-native:network:Subnet", "azure-native:network:NatGateway", "an associated NAT gateway"),
        ("azure-native:storagecache:AmlFilesystem", "azure-native:authorization:RoleAssignment", "its provider roles"),
        # the nodes' identity's role (the AMLFS roles name the provider's own principal)
        (
            "azure-native:authorization:RoleAssignment#c-node-container",
            "azure-native:managedidentity:UserAssignedIdentity",
            "no orphan",
        ),
    ],
    "gcp": [
        ("gcp:filestore/instance:Instance", "gcp:servicenetworking/connection:Connection", "the producer"),
        ("gcp:servicenetworking/connection:Connection", "gcp:compute/globalAddress:GlobalAddress", "its range"),
        ("gcp:compute/instanceGroupManager:InstanceGroupManager", "gcp:compute/subnetwork:Subnetwork", "its VMs"),
        ("gcp:compute/instance:Instance", "gcp:compute/address:Address", "the head holds its address"),
    ],
}
DATA = {
    "aws": {"source": "s3://team-data/imagenet", "size_gib": 140},
    "azure": {"source": "https://teamdata.blob.core.windows.net/datasets/imagenet", "resource_group": "data-rg"},
    "gcp": None,  # the committed GCP stack's Filestore takes no bucket link
}


class Monitor(harness.Monitor):
    """Records every resource's dependencies by (type, name): names repeat across types."""

    def __init__(self, mocks) -> None:
        super().__init__(mocks)
        self.graph: dict[tuple[str, str], set[tuple[str, str]]] = {}

    def RegisterResource(self, request):  # noqa: N802 (gRPC method name)
        self.graph[request.type, request.name] = {_key(urn) for urn in request.dependencies}
        return super().RegisterResource(request)


def _key(urn: str) -> tuple[str, str]:
    _, _, _, types, name = urn.split("::", 4) if urn.count("::") >= 4 else ("", "", "", *urn.rsplit("::", 2)[-2:])
    return types.split("$")[-1], name


def _graph(provider: str) -> dict[tuple[str, str], set[tuple[str, str]]]:
    # the cloud's VM cluster stack (a managed platform's pool stack has no file system or nodes)
    stack = next(
        p for p in sorted((ROOT / "stacks").glob("Pulumi.*.yaml")) if _provider(p) == provider and not _platform(p)
    )
    config = yaml.safe_load(stack.read_text())["config"]
    cluster = dict(config["trainstack:cluster"], job={"command": "/fsx/t.py"})
    if DATA[provider]:
        cluster["data"] = DATA[provider]
    parsed = validate_cluster(cluster, config[CLOUDS[provider].region_key], "c")
    mocks = harness.CallRecordingMocks(parsed.region, parsed.zone)
    monitor = Monitor(mocks)
    import pulumi

    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False, monitor=monitor)

    @pulumi.runtime.test
    def program():
        load(CLOUDS[provider].component)("c", parsed)

    program()
    return monitor.graph


def _provider(path: Path) -> str:
    return yaml.safe_load(path.read_text())["config"]["trainstack:cluster"]["provider"]


def _platform(path: Path) -> str | None:
    return yaml.safe_load(path.read_text())["config"]["trainstack:cluster"].get("platform")


def _reaches(graph, start, target_type) -> set[tuple[str, str]]:
    seen, todo = set(), [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return {d for d in seen if d[0] == target_type}


@pytest.mark.parametrize("provider", list(BLOCKERS))
def test_what_holds_a_resource_is_deleted_before_it(provider):
    graph = _graph(provider)
    types = {t for t, _ in graph}
    for dependent, dependency, why in BLOCKERS[provider]:
        kind, _, name = dependent.partition("#")
        dependents = [key for key in graph if key[0] == kind and name in ("", key[1])]
        assert dependents, f"{provider}: no {dependent} to check ({why})"
        assert dependency in types, f"{provider}: no {dependency}"
        for key in dependents:
            assert _reaches(graph, key, dependency), f"{key} is not deleted before its {dependency} ({why})"


def test_the_gcp_private_services_connection_is_abandoned_on_destroy():
    from tests.clusters import example_config

    plan = harness.build_plan(load(CLOUDS["gcp"].component), example_config("gcp"), ())
    (connection,) = plan.of_type("gcp:servicenetworking/connection:Connection")
    assert connection["inputs"]["deletionPolicy"] == "ABANDON"
