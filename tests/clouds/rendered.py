"""Every bootstrap the committed stacks render, as the components render them under the plan's
mocks: each stack as committed and with a `job:` added (so the head's and the workers' units
render too), decoded from the input that carries it (EC2 user data, Azure custom data, a
Compute Engine `startup-script`). Shared by the real-tool checks and the job-runtime proof.
"""

from __future__ import annotations

import base64
import functools
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from trainstack.plan.runner import PlanError, run_plan

ROOT = Path(__file__).resolve().parents[2]
STACKS = tuple(sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in (ROOT / "stacks").glob("Pulumi.*.yaml")))
JOB = {"command": "/fsx/code/train.py --epochs 3", "env": {"RUN_NAME": "a b"}}
# resource input paths that carry a bootstrap, and whether cloud-init runs it
CARRIERS = {
    "userData": True,  # aws:ec2/launchTemplate (base64)
    "userDataBase64": True,  # aws:ec2/instance (base64)
    "customData": True,  # azure-native VirtualMachineScaleSet / VirtualMachine (base64)
    "startup-script": False,  # Compute Engine metadata: run by the guest agent, not cloud-init
}
# Azure's `userData` is not a bootstrap: the head VM's carries the job channel (`nodeagent.relay`).
NOT_CARRIERS = {("azure-native:compute:VirtualMachine", "userData")}
_UNIT = re.compile(r"^cat > (/etc/systemd/system/[\w.@-]+\.service) <<'(\w+)'\n(.*?)\n\2$", re.M | re.S)


_FSTAB = re.compile(r"echo '([^'\n]+)' >> /etc/fstab")


@dataclass(frozen=True)
class Bootstrap:
    """One rendered bootstrap: the stack (with `+job` when the job was added), the resource
    type and name that carries it, the input key, the text, and whether cloud-init runs it."""

    stack: str
    resource_type: str
    resource: str
    key: str
    text: str
    cloud_init: bool

    @property
    def label(self) -> str:
        return f"{self.stack}:{self.resource}"

    def fstab(self) -> list[str]:
        """The lines the script appends to /etc/fstab (`echo 'LINE' >> /etc/fstab`)."""
        return _FSTAB.findall(self.text)

    def units(self) -> dict[str, str]:
        """The systemd units the script writes (path -> text)."""
        return {m.group(1): m.group(3) + "\n" for m in _UNIT.finditer(self.text)}


def _carried(value: object, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in _carried(v, k)]
    if isinstance(value, list):
        return [found for v in value for found in _carried(v, key)]
    if isinstance(value, str) and key in CARRIERS:
        text = value if key == "startup-script" else base64.b64decode(value).decode()
        return [(key, text)]
    return []


@functools.cache
def rendered(stack: str, with_job: bool) -> tuple[Bootstrap, ...]:
    """The bootstraps of committed stack `stack` (with `JOB` added when `with_job`); () when
    the stack refuses a job (GCP TPU slices, the Chinese clouds: no node agent there). As
    committed, the stack is planned where it lies (the session's plan of it: tests/shared_runs.py)."""
    if not with_job:
        return _carriers(stack, run_plan(stack, ROOT, priced=False).resources)
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        shutil.copy(ROOT / "__main__.py", project)
        shutil.copy(ROOT / "Pulumi.yaml", project)
        (project / "stacks").mkdir()
        document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())
        document["config"]["trainstack:cluster"]["job"] = dict(JOB)
        (project / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump(document))
        try:
            resources = run_plan(stack, project, priced=False).resources
        except PlanError:
            return ()
    return _carriers(f"{stack}+job", resources)


def _carriers(label: str, resources: list[dict]) -> tuple[Bootstrap, ...]:
    """The bootstraps carried by a plan's `resources`, labelled `label`."""
    return tuple(
        Bootstrap(label, r["type"], r["name"], key, text, CARRIERS[key])
        for r in resources
        for key, text in _carried(r["inputs"])
        if (r["type"], key) not in NOT_CARRIERS
    )


@functools.cache
def tracked() -> tuple[Bootstrap, ...]:
    """The head's and a worker's bootstrap of an Azure, AWS and GCP cluster whose job asks for
    `tracking: {mlflow: managed}` (`clouds.mlflow_head`: the server's unit, the workers' URI),
    rendered by the pure bootstraps: no committed stack has the dataset (the team's bucket) it needs."""
    from clouds.aws.bootstrap import node_user_data
    from clouds.azure.bootstrap import custom_data_text
    from clouds.gcp.bootstrap import startup_script
    from tests.clusters import example_config

    job = {**JOB, "tracking": {"mlflow": "managed"}}
    cluster = example_config("aws", purchase="on-demand", job=job, data={"source": "s3://team-data/imagenet"})
    dns, mount = "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "abcdefgh"
    head = node_user_data("tracked", cluster, dns, mount, "127.0.0.1", "head")
    worker = node_user_data("tracked", cluster, dns, mount, "10.0.0.4", "worker")
    gcp = example_config("gcp", job=job, data={"source": "gs://team-data/imagenet"})
    gcp_head = startup_script("tracked", gcp, "head", None, None, None, "127.0.0.1")
    gcp_worker = startup_script("tracked", gcp, "worker", None, None, None, "10.0.0.4")
    azure = example_config(
        "azure",
        job=job,
        data={"source": "https://teamdata.blob.core.windows.net/datasets/imagenet", "resource_group": "team-rg"},
    )
    azure_head = custom_data_text("tracked", azure, "head", "10.0.1.4", "127.0.0.1").decode()
    azure_worker = custom_data_text("tracked", azure, "worker", "10.0.1.4", "10.0.0.4").decode()
    vm, vmss = "azure-native:compute:VirtualMachine", "azure-native:compute:VirtualMachineScaleSet"
    return (
        Bootstrap("tracked+job", vm, "tracked-head", "customData", azure_head, True),
        Bootstrap("tracked+job", vmss, "tracked-nodes", "customData", azure_worker, True),
        Bootstrap("tracked+job", "aws:ec2/instance:Instance", "tracked-head", "userDataBase64", head, True),
        Bootstrap("tracked+job", "aws:ec2/launchTemplate:LaunchTemplate", "tracked-lt", "userData", worker, True),
        Bootstrap("tracked+job", "gcp:compute/instance:Instance", "tracked-head", "startup-script", gcp_head, False),
        Bootstrap(
            "tracked+job",
            "gcp:compute/instanceTemplate:InstanceTemplate",
            "tracked-t",
            "startup-script",
            gcp_worker,
            False,
        ),
    )


def every_bootstrap() -> list[Bootstrap]:
    """The bootstraps of every committed stack, as committed and with a job, and `tracked`."""
    return [b for stack in STACKS for with_job in (False, True) for b in rendered(stack, with_job)] + list(tracked())
