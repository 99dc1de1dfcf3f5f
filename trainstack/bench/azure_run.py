"""Azure Run Command on a cluster's worker VMs, through ARM REST (`profiles.preflight.azure_api`).

The workers are the VMs of the scale sets tagged `trainstack:cluster=<name>` (Azure copies the
cluster's tags to them, `clouds.common`), found as `trainstack status` finds the sets: a
Uniform set's VMs from `Virtual Machine Scale Set VMs - List` (`$expand=instanceView`), a
Flexible set's from `Virtual Machines - List All` (`statusOnly=true`, filtered to the set);
only VMs whose instance view says `PowerState/running` are asked.

Each VM gets the action Run Command `RunShellScript` (`POST <vm id>/runCommand`, for a scale
set VM `.../virtualMachineScaleSets/<set>/virtualMachines/<instance id>/runCommand`): ARM
answers 202 with the operation to poll (`Azure-AsyncOperation`), whose answer, once
`status` is `Succeeded`, holds the script's output as one message
`Enable succeeded: \\n[stdout]\\n...\\n[stderr]\\n...` under `properties.output.value`
(recorded in Azure/azure-cli#32286). The agent runs the script as root; the script's exit
status does not always reach the answer (Azure/azure-cli#14425), so callers print marks they
check (as `bench` and `progress` do). Microsoft documents for the action Run Command ("Run
scripts in your Linux VM by using action Run Commands", azure-docs
articles/virtual-machines/linux/run-command.md; not in shared/reference-facts): one script at a
time per VM, at most 90 minutes per script, only the last 4,096 bytes of output kept, and the
VM needs outbound port 443 to Azure to return the results (the nodes' NAT path). The caller
needs `Microsoft.Compute/virtualMachines/runCommands/write` (Virtual Machine Contributor has
it); the nodes need no role.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from trainstack.bench.node_run import Invocation, RemoteError

API_VERSION = "2024-11-01"  # Compute REST API version (lists both Run Command calls)
COMMAND_ID = "RunShellScript"
TAG = "trainstack:cluster"
ENDED = ("Succeeded", "Failed", "Canceled")  # an ARM async operation's final statuses


def in_bash(commands: list[str]) -> list[str]:
    """`commands` as one bash script whatever shell the agent starts (the lines use bash)."""
    return ["bash <<'TRAINSTACK_BASH'", *commands, "TRAINSTACK_BASH"]


def running(vm: dict[str, Any]) -> bool:
    """Whether a listed VM's instance view says it is running."""
    statuses = ((vm.get("properties") or {}).get("instanceView") or {}).get("statuses", [])
    return any(s.get("code") == "PowerState/running" for s in statuses)


def worker_vms(get: Any, subscription: str, name: str) -> list[str]:
    """The ids of the running VMs of cluster `name`'s scale sets, sorted.

    Args:
        get: `(path, params=...) -> items` of an ARM list (`azure_api.listed`).
    """
    from trainstack.status.azure_live import in_set

    compute = f"/subscriptions/{subscription}/providers/Microsoft.Compute"
    sets = [s for s in get(f"{compute}/virtualMachineScaleSets") if (s.get("tags") or {}).get(TAG) == name]
    found: list[str] = []
    for scale_set in sets:
        if (scale_set.get("properties") or {}).get("orchestrationMode") == "Flexible":
            where = {"statusOnly": "true", "$filter": f"virtualMachineScaleSet/id eq '{scale_set['id']}'"}
            vms = [vm for vm in get(f"{compute}/virtualMachines", params=where) if in_set(vm, scale_set)]
        else:
            vms = get(f"{scale_set['id']}/virtualMachines", params={"$expand": "instanceView"})
        found += [vm["id"] for vm in vms if running(vm) and vm.get("id")]
    return sorted(found)


def short(vm_id: str) -> str:
    """A VM's name for messages: `set_3` for a scale set VM, the VM's name otherwise."""
    parts = vm_id.rstrip("/").split("/")
    if "virtualMachineScaleSets" in parts and len(parts) >= 2 and parts[-2] == "virtualMachines":
        return f"{parts[parts.index('virtualMachineScaleSets') + 1]}_{parts[-1]}"
    return parts[-1]


def script_output(message: str) -> str:
    """The script's standard output then error, from the Run Command message."""
    _, found, rest = message.partition("[stdout]\n")
    text = rest if found else message
    out, _, err = text.partition("[stderr]\n")
    return out.rstrip("\n") + ("\n" + err.rstrip("\n") if err.strip() else "")


def invocation(vm_id: str, operation: dict[str, Any]) -> Invocation | None:
    """One VM's run from its operation's answer (`Azure-AsyncOperation`: the operation with its
    `status`; `Location`: 202 and no body while it runs, then the result itself); None while it runs."""
    if "value" in operation and "status" not in operation:  # the Location URL's final answer
        operation = {"status": "Succeeded", "properties": {"output": operation}}
    status = str(operation.get("status", ""))
    if status not in ENDED:
        return None
    if status != "Succeeded":
        error = operation.get("error") or {}
        return Invocation(vm_id, status, f"{error.get('code', status)}: {error.get('message', 'no message')}")
    values = ((operation.get("properties") or {}).get("output") or {}).get("value", [])
    message = "\n".join(str(v.get("message", "")) for v in values)
    failed = message.startswith("Enable failed") or any("failed" in str(v.get("code", "")).lower() for v in values)
    return Invocation(vm_id, "Failed" if failed else "Success", script_output(message))


class AzureRunner:
    """Run Command on the cluster's worker VMs (`trainstack.bench.node_run.NodeRunner`). A long
    run is started detached (`detaches`): one Run Command may last 90 minutes and holds the VM."""

    detaches = True

    def __init__(self, cluster: Any, stack: str, settings: dict, sleep: Callable[[float], None] = time.sleep) -> None:
        from profiles.preflight import azure_api

        self.api, self.stack, self.sleep = azure_api, stack, sleep
        self.token, self.subscription = azure_api.credentials()

    def nodes(self) -> list[str]:
        """The running worker VMs' ids."""

        def get(path: str, params: dict[str, str] | None = None) -> Any:
            return self.api.listed(path, self.token, API_VERSION, params)

        return worker_vms(get, self.subscription, self.stack)

    def send(self, nodes: list[str], commands: list[str], comment: str, timeout_seconds: int) -> dict[str, str]:
        """Start the script on each VM; VM id -> the operation to poll. (`comment` and
        `timeout_seconds` have no field in the action Run Command: its own limit is 90 minutes.)"""
        body = {"commandId": COMMAND_ID, "script": in_bash(commands)}
        return {vm: self.api.started("POST", f"{vm}/runCommand", self.token, API_VERSION, body) for vm in nodes}

    def wait(
        self,
        handle: dict[str, str],
        deadline_seconds: float,
        pause: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> list[Invocation]:
        """Each VM's run once all have ended, in `handle`'s order.

        Raises:
            RemoteError: no VM, one did not succeed, or the deadline passed.
        """
        if not handle:
            raise RemoteError(f"no running VM of a scale set tagged {TAG}={self.stack}; is the stack up?")
        end, done = clock() + deadline_seconds, {}
        while True:
            for vm, url in handle.items():
                if vm not in done and (found := invocation(vm, self.api.call("GET", url, self.token, API_VERSION))):
                    done[vm] = found
            if len(done) == len(handle):
                break
            if clock() >= end:
                waiting = ", ".join(short(vm) for vm in handle if vm not in done)
                raise RemoteError(f"Run Command still running after {deadline_seconds:.0f} s ({waiting})")
            self.sleep(pause)
        runs = [done[vm] for vm in handle]
        for run in runs:
            if run.status != "Success":
                raise RemoteError(f"{short(run.instance_id)}: {run.status}: {run.output.strip()[-300:] or 'no output'}")
        return runs

    def named(self, handle: dict[str, str]) -> str:
        """`<n> Run Command operations`."""
        return f"{len(handle)} Run Command operations"


Runner = AzureRunner
