"""What GCP would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`gcp_outputs` returns the outputs pulumi_gcp computes beyond the inputs: NIC IPs, self
links, service-account emails, Filestore addresses, Lustre mount points and TPU endpoints;
`GCP_INVOKES` answers the project lookup. All values are deterministic. The project is the
stack's own `gcp:project` (`gcp_mock(project)`, through `Mock.for_stack`), as the real
provider answers from its configured project; `mock-project` only where no stack gives one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.base import Mock
from clouds.mock_ids import node_ip

GCP_PROJECT_ID = "mock-project"
COMPUTE_API = "https://www.googleapis.com/compute/v1"


def gcp_outputs(typ: str, name: str, inputs: Mapping[str, Any], project: str = GCP_PROJECT_ID) -> dict[str, Any]:
    """Outputs pulumi_gcp resources would report beyond their inputs, in `project` (a
    resource's own `project` input wins, as the provider's does)."""
    project = str(inputs.get("project") or project)
    outputs: dict[str, Any] = {
        "name": inputs.get("name", name),
        "selfLink": f"{COMPUTE_API}/projects/{project}/{name}",
    }
    if typ == "gcp:compute/instance:Instance":
        outputs["networkInterfaces"] = [
            {**nic, "networkIp": nic.get("networkIp") or node_ip(name, nic=i)}  # a reserved address stays
            for i, nic in enumerate(inputs.get("networkInterfaces", []))
        ]
    elif typ == "gcp:compute/instanceTemplate:InstanceTemplate":
        # the API's unique self link carries the template's numeric id (one version here)
        outputs["selfLinkUnique"] = f"{outputs['selfLink']}?uniqueId=1"
    elif typ == "gcp:serviceaccount/account:Account":
        outputs["email"] = f"{inputs['accountId']}@{project}.iam.gserviceaccount.com"
    elif typ == "gcp:filestore/instance:Instance":
        outputs["networks"] = [{**net, "ipAddresses": ["10.99.0.2"]} for net in inputs["networks"]]
    elif typ == "gcp:lustre/instance:Instance":
        outputs["mountPoint"] = f"10.252.0.5@tcp:/{inputs['filesystem']}"
    elif typ == "gcp:compute/address:Address":  # an internal address the subnet hands out
        outputs["address"] = inputs.get("address") or "10.0.0.250"
    elif typ == "gcp:tpu/v2Vm:V2Vm":
        outputs["networkEndpoints"] = [{"ipAddress": node_ip(name)}]
    return outputs


PROJECT_LOOKUP = "gcp:organizations/getProject:getProject"
# The answers of the default mock (no stack config): kept for callers that list the tokens.
GCP_INVOKES = {PROJECT_LOOKUP: {"id": GCP_PROJECT_ID, "projectId": GCP_PROJECT_ID, "number": "123456"}}


def gcp_mock(project: str = GCP_PROJECT_ID) -> Mock:
    """The GCP mock for `project`: getProject answers it (or the project the call names),
    and service-account emails and self links lie in it."""

    def invoke(token: str, args: Mapping[str, Any], region: str, zone: str | None) -> dict[str, Any] | None:
        if token != PROJECT_LOOKUP:
            return None
        asked = str(args.get("projectId") or project)
        return {"id": asked, "projectId": asked, "number": "123456"}

    return Mock(
        prefixes=("gcp:",),
        outputs=lambda typ, name, inputs, region: (None, gcp_outputs(typ, name, inputs, project)),
        invoke=invoke,
        for_stack=lambda config: gcp_mock(str(config.get("gcp:project") or GCP_PROJECT_ID)),
    )


MOCK = gcp_mock()
