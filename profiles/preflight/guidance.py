"""Preflight guidance for Azure, GCP and the Chinese clouds: which quota applies, how much,
where to ask.

trainstack has no live Azure or GCP quota client yet, so these findings are `unknown`: they
state the need (vCPUs from the catalog row of the stack's instance type, GPUs from the
stack) and the command or console page that shows and raises the quota.
  Azure: vCPU quotas per VM family per region, plus Total Regional vCPUs; Spot VMs count
         against the regional Spot (low-priority) vCPU quota instead. An Azure ML compute
         cluster counts against Azure ML's own quota instead (`facts.quotas` Q11, Q12).
  GCP:   regional GPU quotas per model (NVIDIA_<MODEL>_GPUS), Spot/preemptible ones separate
         (PREEMPTIBLE_NVIDIA_<MODEL>_GPUS), plus CPUS (`facts.quotas`, Q4); TPUs
         have their own Cloud TPU quotas.
"""

from __future__ import annotations

from collections.abc import Callable

from clouds.base import load
from clouds.contract import ClusterConfig
from clouds.registry import CLOUDS
from facts.quotas import gcp_gpu_metric
from profiles.preflight.finding import Finding

NOT_LIVE = "not checked live (no {cloud} quota API in trainstack yet)"


def catalog_vcpus(cluster: ClusterConfig) -> float | None:
    """vCPUs per instance of the stack's instance type, from the catalog; None if unknown."""
    from profiles.catalog.loader import load_catalog

    for offering in load_catalog(providers=(cluster.provider,)).offerings:
        if offering.instance_type == cluster.instance_type and offering.vcpus:
            return offering.vcpus
    return None


def _need_vcpus(cluster: ClusterConfig) -> str:
    vcpus = catalog_vcpus(cluster)
    return f"{cluster.nodes * vcpus:g} vCPUs" if vcpus else f"{cluster.nodes} x the vCPUs of {cluster.instance_type}"


def azure_guidance(cluster: ClusterConfig, name: str = "cluster") -> list[Finding]:
    """What Azure quota the stack needs and how to check and raise it; an Azure ML stack's
    compute cluster counts against Azure ML's own quota (`azure_ml_guidance`), not the VMs'.

    Args:
        name: the stack name (the Azure ML workspace and its resource group derive from it).
    """
    if cluster.platform == "azureml":
        return azure_ml_guidance(cluster, name)
    need = _need_vcpus(cluster)
    if cluster.purchase == "spot":
        quota = "the regional Spot (low-priority) vCPU quota"
    else:
        quota = f"the VM-family vCPU quota of {cluster.instance_type} and Total Regional vCPUs"
    return [
        Finding(
            "quota",
            "unknown",
            f"{NOT_LIVE.format(cloud='Azure')}: {cluster.nodes} x {cluster.instance_type} needs {need} of {quota} "
            f"in {cluster.region}",
            f"compare with `az vm list-usage --location {cluster.region} -o table`; request more in the "
            "Azure portal under Quotas > Compute",
        )
    ]


def azure_ml_guidance(cluster: ClusterConfig, name: str = "cluster") -> list[Finding]:
    """What Azure ML compute quota an Azure ML stack needs (`facts.quotas` Q11): Azure ML compute
    has a quota of its own, separate from the VMs' vCPU quota; dedicated cores per VM family per
    region (GPU families start at 0), low-priority cores one value per region across families.
    `az ml compute list-usage` shows the workspace's usage and limits (Q12)."""
    from clouds.azure import aml

    need = _need_vcpus(cluster)
    if cluster.purchase == "spot":
        quota = "Azure ML's low-priority core quota (one value per region, across VM families)"
    else:
        quota = f"Azure ML's dedicated core quota of {cluster.instance_type}'s VM family and its total dedicated cores"
    workspace = f"-g {aml.resource_group_name(name)} -w {aml.workspace_name(name)}"
    return [
        Finding(
            "quota",
            "unknown",
            f"{NOT_LIVE.format(cloud='Azure ML')}: an Azure ML compute cluster of {cluster.nodes} x "
            f"{cluster.instance_type} needs {need} of {quota} in {cluster.region}; Azure ML compute has its own "
            "quota, not the VMs' vCPU quota",
            f"compare with `az ml compute list-usage {workspace} -o table` (once `pulumi up` made the workspace); "
            "request more in the workspace's Usage + quotas (Azure portal or Azure ML studio)",
        )
    ]


def gcp_guidance(cluster: ClusterConfig, name: str = "cluster") -> list[Finding]:
    """What GCP quota the stack needs and how to check and raise it. A flex-start stack's GPUs
    count against the preemptible GPU quota, as spot's do (`facts.quotas` Q5)."""
    flex = bool(getattr(cluster, "flex_start", False))
    spot = cluster.purchase == "spot" or flex
    gpus = cluster.nodes * cluster.accelerator_count
    if cluster.accelerator.lower().startswith("tpu"):
        need = f"{gpus} {cluster.accelerator} chips of the Cloud TPU{' Spot' if spot else ''} quota"
        where = "request in the console under IAM & Admin > Quotas (service tpu.googleapis.com)"
    else:
        metric = gcp_gpu_metric(cluster.accelerator, cluster.instance_type, spot)
        quota = metric or f"the {'preemptible ' if spot else ''}{cluster.accelerator} GPU quota"
        if flex:  # Google Cloud blog 2025-09-25: flex-start VMs consume preemptible quota
            quota += " (flex-start VMs consume preemptible quota: facts.quotas Q5)"
        need = f"{gpus} GPUs of {quota} and {_need_vcpus(cluster)} of CPUS"
        where = (
            f"compare with `gcloud compute regions describe {cluster.region}`; request in the console "
            "under IAM & Admin > Quotas"
        )
    return [
        Finding(
            "quota",
            "unknown",
            f"{NOT_LIVE.format(cloud='GCP')}: {cluster.nodes} x {cluster.instance_type} needs {need} "
            f"in {cluster.region}",
            where,
        )
    ]


def generic_guidance(cluster: ClusterConfig, name: str = "cluster") -> list[Finding]:
    """What to confirm by hand on a cloud whose offerings and quotas trainstack cannot check
    (trainstack has no fact on its quota names or limits)."""
    found = CLOUDS.get(cluster.provider)
    cloud = found.display_name if found else cluster.provider
    gpus = cluster.nodes * cluster.accelerator_count
    return [
        Finding(
            "offered",
            "unknown",
            f"not checked live (no {cloud} offering or quota API in trainstack yet): {cluster.nodes} x "
            f"{cluster.instance_type} ({gpus} {cluster.accelerator} GPUs, {cluster.purchase}) in {cluster.zone}",
            f"confirm in the {cloud} console that {cluster.zone} sells {cluster.instance_type} and that your "
            "GPU instance quota covers it",
        )
    ]


# registry name -> its offline guidance (`Cloud.guidance`, else generic), for every cloud
# without a live check (`Cloud.live_check`).
GUIDANCE: dict[str, Callable[[ClusterConfig, str], list[Finding]]] = {
    name: load(c.guidance) if c.guidance else generic_guidance for name, c in CLOUDS.items() if c.live_check is None
}
