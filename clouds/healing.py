"""What each cloud's cluster does when a node is lost: who replaces it, and how long it takes.

One entry per registered cloud (`clouds.registry.NAMES`). `restart_hours` is the time from a
spot interruption to the job running again on a full cluster; the spot estimate
(`profiles.cost.inputs.RESTART_HOURS`) reads it, and `resolve` / `plan` print `summary`.

Figures: no measured replace-and-rejoin time was collected for any cloud, so every figure is
unsourced and labelled so: [0.25 h] where a node group replaces the node (launch, boot,
bootstrap, rendezvous, checkpoint load); [2 h] where nobody does (a person notices and runs
`pulumi up`, then the job is restarted by hand).
"""

from __future__ import annotations

from dataclasses import dataclass

GROUP_RESTART_HOURS = 0.25  # unsourced, see module docstring
MANUAL_RESTART_HOURS = 2.0  # unsourced, see module docstring


@dataclass(frozen=True)
class Healing:
    """A cloud's answer to a lost node.

    Attributes:
        replaces_nodes: True when the cluster replaces a lost node by itself.
        runs_job: True when the component ships the node agent, so `job:` runs there.
        restart_hours: hours from an interruption to the job running again (unsourced).
        summary: one line for `resolve` notes and `plan`.
        no_job_types: instance-type prefixes whose nodes get no node agent, with the reason
            (`(("tpu-", "TPU slices get no node bootstrap"),)`).
        unreplaced_types: instance-type prefixes the cloud's node group does not hold, so
            their nodes get the manual answer (`healing(provider, instance_type)`).
    """

    replaces_nodes: bool
    runs_job: bool
    restart_hours: float
    summary: str
    no_job_types: tuple[tuple[str, str], ...] = ()
    unreplaced_types: tuple[str, ...] = ()


def _manual(cloud: str, could: str = "") -> Healing:
    """The answer where nothing replaces nodes; `could` names the cloud's auto-scaling service
    that might (docs/self-healing.md says what it would take)."""
    hint = f"; {could} could, not built yet (docs/self-healing.md)" if could else ""
    return Healing(
        False,
        False,
        MANUAL_RESTART_HOURS,
        f"nodes are not replaced automatically on {cloud}: after an interruption run `pulumi up` "
        f"and restart the job (manual restart, unsourced {MANUAL_RESTART_HOURS:g} h){hint}",
    )


HEALING: dict[str, Healing] = {
    "aws": Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "nodes are an Auto Scaling group: a lost node is replaced and rejoins the job "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption)",
    ),
    "azure": Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "the scale set restores evicted spot VMs and repairs unhealthy ones, which rejoin the job "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption)",
    ),
    "gcp": Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "GPU nodes are a managed instance group: a preempted spot VM is deleted, recreated and "
        f"rejoins the job (unsourced {GROUP_RESTART_HOURS:g} h per interruption; TPU slices are not replaced)",
        (("tpu-", "TPU slices get no node bootstrap yet"),),
        ("tpu-",),
    ),
    "huaweicloud": _manual("Huawei Cloud"),
    "volcengine": _manual("Volcengine", "its Auto Scaling group (spot, HPC cluster)"),
    "alicloud": _manual("Alibaba Cloud", "its ESS scaling group (spot instance remedy)"),
    "tencentcloud": _manual("Tencent Cloud"),
    "baiducloud": _manual("Baidu AI Cloud"),
}


def healing(provider: str, instance_type: str = "") -> Healing:
    """The entry of `provider`; an unknown name, or an instance type its group does not hold
    (GCP TPU slices), gets the manual answer."""
    entry = HEALING.get(provider)
    if entry is None:
        return _manual(provider)
    if instance_type and instance_type.startswith(entry.unreplaced_types):
        return _manual(f"{provider} {instance_type}")
    return entry


def job_problem(
    provider: str, instance_type: str, nproc_per_node: int | None = None, gpus: int | None = None
) -> str | None:
    """Why a `job:` cannot run on `instance_type` nodes of `provider`, or None when it can.

    The one rule behind both the resolver's `job` constraint and the cluster config check.

    Args:
        provider: the cloud.
        instance_type: the node type.
        nproc_per_node: the job's processes per node, or None for one per GPU.
        gpus: the node's accelerators (GPUs, or TPU chips); None skips the process check.
    """
    if nproc_per_node is not None and gpus is not None and nproc_per_node > gpus:
        return (
            f"job.nproc_per_node: {nproc_per_node} processes on {instance_type}, which has {gpus} "
            f"accelerators; give at most {gpus} (one process per GPU), or leave it out"
        )
    entry = healing(provider)
    if not entry.runs_job:
        runs = ", ".join(name for name, h in HEALING.items() if h.runs_job)
        return (
            f"job: the {provider} component does not run a job yet (the node agent ships on {runs}); "
            "remove job and start torchrun by hand, or choose one of those clouds"
        )
    for prefix, reason in entry.no_job_types:
        if instance_type.startswith(prefix):
            return f"job: {instance_type} on {provider}: {reason}; remove job and start training by hand"
    return None


def check_job(
    provider: str, instance_type: str, has_job: bool, nproc_per_node: int | None = None, gpus: int | None = None
) -> None:
    """Refuse a `job:` its nodes cannot run (`job_problem`).

    Raises:
        ValueError: the `job_problem` line.
    """
    problem = job_problem(provider, instance_type, nproc_per_node, gpus) if has_job else None
    if problem:
        raise ValueError(problem)
