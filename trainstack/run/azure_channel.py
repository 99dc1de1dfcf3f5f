"""`trainstack run` on an Azure VM stack: the run written to the head's job channel, the VM's
user data (`trainstack.run.head_channel`), through ARM REST (`profiles.preflight.azure_api`).

- The head is found among the subscription's VMs (Compute REST `Virtual Machines - List All`):
  tagged `trainstack:cluster=<cluster>` (`clouds.common.cluster_tags`), named `{cluster}-head...`
  (`components.azure.head`), and in no scale set (a Flexible set's VMs are listed too).
- Its user data is read with `Virtual Machines - Get` and `$expand=userData` (base64), and
  written with `Virtual Machines - Update` (PATCH `properties.userData`, api-version 2021-03-01
  or later). Azure updates user data "without stopping or rebooting the VM" ("User Data for
  Azure Virtual Machine").
- The update is long-running: the VM is read again until its `provisioningState` is
  `Succeeded` and it holds the user data sent (`Failed` is the run's failure).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Mapping
from typing import Any

from clouds.contract import ClusterConfig
from trainstack.run import MissingCredentials, PlatformFailed, RunError, Submitted
from trainstack.run import head_channel as channel

# Compute REST API version (2024-11-01 has `$expand=userData` and user data in the update).
API_VERSION = "2024-11-01"
TAG = "trainstack:cluster"


def is_head(vm: dict[str, Any], name: str) -> bool:
    """Whether `vm` (a `List All` item) is the head node of cluster `name`."""
    properties = vm.get("properties") or {}
    return (
        (vm.get("tags") or {}).get(TAG) == name
        and str(vm.get("name", "")).startswith(f"{name}-head")
        and not properties.get("virtualMachineScaleSet")
    )


def head_of(vms: list[dict[str, Any]], name: str, region: str) -> dict[str, Any]:
    """The head node among `vms` (`head_channel.the_head`).

    Raises:
        RunError: none (the stack is not up, or has no job).
    """
    return channel.the_head(vms, is_head, name, region)


def user_data(vm: dict[str, Any]) -> str | None:
    """The channel's text in a VM's user data (decoded), or None."""
    raw = (vm.get("properties") or {}).get("userData")
    if not raw:
        return None
    try:
        return base64.b64decode(raw, validate=True).decode()
    except ValueError:
        return None


def wait_applied(
    get: Callable[[], dict[str, Any]],
    sent: str,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """The VM once its update has succeeded with the user data `sent` (base64).

    Raises:
        RunError: the update failed, or not done by `DEADLINE_SECONDS`.
    """
    end = clock() + channel.DEADLINE_SECONDS
    while True:
        vm = get()
        properties = vm.get("properties") or {}
        state = properties.get("provisioningState")
        if state == "Failed":
            raise RunError("job: the head's update failed (provisioningState Failed); see the VM's activity log")
        if state == "Succeeded" and properties.get("userData") == sent:
            return vm
        if clock() >= end:
            raise RunError(f"job: the head's update not done after {channel.DEADLINE_SECONDS:.0f} s ({state})")
        sleep(channel.PAUSE_SECONDS)


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """What `submit` sends (`run --dry-run`)."""
    new_run = channel.run_id(cluster, name, stamp)
    return {
        "method": "PATCH",
        "path": f"/subscriptions/SUBSCRIPTION/resourceGroups/GROUP/providers/Microsoft.Compute/virtualMachines/{name}-head*",
        "body": {"properties": {"userData": f"<base64 of the head's job channel with run_id {new_run}>"}},
    }


def submit(
    cluster: ClusterConfig, name: str, stamp: str, settings: Mapping[str, Any] | None = None, sleep=time.sleep
) -> Submitted:
    """Write the run to the head's user data and wait for Azure to apply it.

    Raises:
        RunError: no head, no channel or another job on it (one line).
        MissingCredentials: no Azure credentials.
        PlatformFailed: ARM refused a call or did not answer.
    """
    from profiles.preflight import azure_api
    from profiles.preflight.finding import PreflightError

    new_run = channel.run_id(cluster, name, stamp)
    try:
        token, subscription = azure_api.credentials()
    except PreflightError as exc:  # the job is fine: the platform cannot be reached without them
        raise MissingCredentials(str(exc)) from None
    try:
        listed = azure_api.listed(
            f"/subscriptions/{subscription}/providers/Microsoft.Compute/virtualMachines", token, API_VERSION
        )
        vm_id = head_of(listed, name, cluster.region)["id"]

        def read() -> dict[str, Any]:
            return azure_api.call("GET", vm_id, token, API_VERSION, params={"$expand": "userData"})

        text = channel.with_run(user_data(read()), channel.stack_job_id(cluster, name), new_run, name)
        sent = base64.b64encode(text.encode()).decode()
        body = {"properties": {"userData": sent}}
        azure_api.call("PATCH", vm_id, token, API_VERSION, body=body)
        wait_applied(read, sent, sleep)
    except PreflightError as exc:  # the cloud refused a call or did not answer: the work failed
        raise PlatformFailed(str(exc)) from None
    return channel.submitted(cluster, name, new_run, {"head": vm_id, "PATCH": body})
