"""Which cloud quota limits a GPU cluster, and its code or metric name.

Sources:
  Q1  AWS EC2 user guide, "Spot Instance limits" (awsdocs/amazon-ec2-user-guide,
      using-spot-limits.md): Spot limits are vCPUs per family group ("All P Spot Instance
      Requests", "All G Spot Instance Requests", ...), separate from On-Demand limits.
  Q2  AWS CLI user guide, service-quotas examples: `get-aws-default-service-quota
      --service-code ec2 --quota-code L-1216C47A` ("Running On-Demand Standard (A, C, D, H,
      I, M, R, T, Z) instances", vCPU count).
  Q3  Quota codes as listed together by several public tools (quota-checking Go clients,
      Terraform `aws_servicequotas_*` resources, a live account's quota notes dated
      2026-07-29): P L-417A185B / L-7212CCBC, G and VT L-DB2E81BA / L-3819A6DF,
      Inf L-1945791B / L-B5D1601B, Trn L-2C3B7624, DL L-6E869C2A / L-85EED4F7.
      Trn Spot L-5480EFD2 appears in one listing only: unsourced [one third-party listing].
  Q4  Compute Engine v1 API `Quota.Metric` enum (cloud.google.com reference): regional GPU
      metrics NVIDIA_<MODEL>_GPUS and, for Spot/preemptible VMs, PREEMPTIBLE_NVIDIA_<MODEL>_GPUS.
  Q5  Google Cloud blog, "GPUs when you need them: Introducing Flex-start VMs" (2025-09-25,
      cloud.google.com/blog/products/compute/introducing-flex-start-vms-for-the-compute-engine-instance-api):
      "Flex-start VMs can run uninterrupted for a maximum of seven days and consume preemptible
      quota", so a flex-start GPU counts against PREEMPTIBLE_NVIDIA_<MODEL>_GPUS.
  Q6  SageMaker's own refusal of CreateTrainingJob, quoting the quota by name, in instances:
      "The account-level service limit 'ml.p3.2xlarge for training job usage' is 0 Instances,
      with current utilization of 0 Instances and a request delta of 1 Instances"
      (GitHub issues gabehollombe-aws/jupyter-notebooks#1, 2020-02-03; zenml-io/zenml#847,
      2022-08-15, ml.p2.xlarge, also 0); running jobs count ("is 2 Instances, with current
      utilization of 3 Instances", aws/amazon-sagemaker-examples#1543, 2020-09-19). SageMaker
      quotas are separate from EC2's ("SageMaker limits are independent of EC2 instance limits",
      a reply in awslabs/amazon-sagemaker-examples#593).
  Q7  "<ml type> for spot training job usage", managed spot training's own quota: third-party
      sources only [no AWS page in the stored corpus]: a Service Quotas exporter's name patterns
      ("<instance_type> for spot training job usage" beside "<instance_type> for training job
      usage") and several projects' `list-service-quotas --service-code sagemaker` notes
      (e.g. "ml.m5.large for training job usage 15 / ml.m5.large for spot training job usage 10").
  Q8  SageMaker HyperPod developer guide, "Prerequisites for using SageMaker HyperPod",
      "SageMaker HyperPod quotas": search for "ml.<instance_type> for cluster usage", e.g.
      "ml.p5.48xlarge for cluster usage"; the value "must be greater than the number of
      instances to add across all your clusters in your account in aggregate". Its codes differ
      between public listings (ml.p5.48xlarge: L-8762A75F in one, L-5C4CD236 in another), so
      trainstack finds each quota by name, never by a recorded code.
  Q9  SageMaker developer guide, "Request a warm pool quota increase"
      (docs.amazonaws.cn/en_us/sagemaker/latest/dg/train-warm-pools-resource-limits.md): "All
      warm pool instance usage counts toward your SageMaker training resource limit."
  Q10 Account-wide SageMaker instance quotas, every type together. HyperPod: the guide of Q8
      lists "Total number of instances allowed across SageMaker HyperPod clusters" and "Maximum
      number instances allowed per SageMaker HyperPod cluster" beside the per-type ones.
      Training jobs: "Number of instances across all training jobs" (code L-00C91CB5, usage
      metric resource `training-job/total_instance_count`, in two public Service Quotas
      listings; a notebook's README: 'gated by the global "Number of instances across all
      training jobs = 4"'); "Number of instances across all spot training jobs" appears in one
      third-party table only [unconfirmed name]. trainstack checks one only when Service Quotas
      lists it by that name.
  Q11 Microsoft Learn, "Manage and increase quotas and limits for resources with Azure Machine
      Learning" (MicrosoftDocs/azure-ai-docs, articles/machine-learning/how-to-manage-quotas.md,
      ms.date 2026-01-27): "Azure Machine Learning compute is an exception. It has a separate
      quota from the core compute quota"; its "quota on the number of cores is split by each VM
      family and cumulative total cores"; "Dedicated cores per region" per VM family, GPU and
      specialized families (NC_A100_v4, NDv2) "start with a default of zero cores"; "Low-priority
      cores per region ... a single value across VM families"; viewed and raised in the
      workspace's Usage + quotas.
  Q12 `az ml compute list-usage` (Azure CLI `ml` extension) lists a workspace's Azure ML usage
      and limits per VM family ("Standard DASv5 Family Cluster Dedicated vCPUs", a total
      line), as public setup scripts call it [the command's reference page is not in the stored
      corpus; the REST call behind it is Usages_List,
      GET .../providers/Microsoft.MachineLearningServices/locations/{location}/usages].
"""

from __future__ import annotations

import re
from typing import NamedTuple


class AwsVcpuQuotas(NamedTuple):
    """The two EC2 vCPU quotas (Service Quotas, service code `ec2`) of a family group.

    Attributes:
        on_demand: quota code of running On-Demand vCPUs, e.g. `L-417A185B`.
        on_demand_name: its name in the Service Quotas console.
        spot: quota code of Spot vCPUs (running and requested), e.g. `L-7212CCBC`.
        spot_name: its name in the Service Quotas console.
    """

    on_demand: str
    on_demand_name: str
    spot: str
    spot_name: str


_P = AwsVcpuQuotas("L-417A185B", "Running On-Demand P instances", "L-7212CCBC", "All P Spot Instance Requests")
_G = AwsVcpuQuotas(
    "L-DB2E81BA", "Running On-Demand G and VT instances", "L-3819A6DF", "All G and VT Spot Instance Requests"
)
# Family letters (the instance type's leading letters) -> quotas (Q1, Q2, Q3).
AWS_VCPU_QUOTAS: dict[str, AwsVcpuQuotas] = {
    "p": _P,
    "g": _G,
    "gr": _G,
    "vt": _G,
    "inf": AwsVcpuQuotas(
        "L-1945791B", "Running On-Demand Inf instances", "L-B5D1601B", "All Inf Spot Instance Requests"
    ),
    "trn": AwsVcpuQuotas(
        "L-2C3B7624", "Running On-Demand Trn instances", "L-5480EFD2", "All Trn Spot Instance Requests"
    ),
    "dl": AwsVcpuQuotas("L-6E869C2A", "Running On-Demand DL instances", "L-85EED4F7", "All DL Spot Instance Requests"),
}
AWS_STANDARD_QUOTAS = AwsVcpuQuotas(
    "L-1216C47A",
    "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances",
    "L-34B43A08",
    "All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests",
)

# Normalized accelerator -> Compute Engine regional GPU quota metric (Q4).
GCP_GPU_METRICS: dict[str, str] = {
    "A100": "NVIDIA_A100_GPUS",
    "A100-80GB": "NVIDIA_A100_80GB_GPUS",
    "H100": "NVIDIA_H100_GPUS",
    "H100-MEGA": "NVIDIA_H100_MEGA_GPUS",
    "H200": "NVIDIA_H200_GPUS",
    "L4": "NVIDIA_L4_GPUS",
    "T4": "NVIDIA_T4_GPUS",
    "V100": "NVIDIA_V100_GPUS",
}


def aws_family(instance_type: str) -> str:
    """The leading letters of an EC2 instance type: `p5.48xlarge` -> `p`, `dl1.24xlarge` -> `dl`."""
    match = re.match(r"[a-z]+", instance_type)
    return match.group(0) if match else ""


def aws_vcpu_quotas(instance_type: str) -> AwsVcpuQuotas:
    """The On-Demand and Spot vCPU quotas that `instance_type` counts against (Q1-Q3)."""
    return AWS_VCPU_QUOTAS.get(aws_family(instance_type), AWS_STANDARD_QUOTAS)


def gcp_gpu_metric(accelerator: str, instance_type: str, spot: bool) -> str | None:
    """Compute Engine GPU quota metric for `accelerator`, or None; `spot` (a Spot or a
    flex-start VM, which consumes preemptible quota: Q5) adds the PREEMPTIBLE_ prefix (Q4)."""
    name = "H100-MEGA" if instance_type.startswith("a3-megagpu") else accelerator
    metric = GCP_GPU_METRICS.get(name)
    return f"PREEMPTIBLE_{metric}" if metric and spot else metric


# SageMaker's per-instance-type quotas (Service Quotas, service code `sagemaker`), counted in
# instances: "<ml type> for <usage> usage" (Q6, Q7, Q8). Found by name, not by code (Q8).
SAGEMAKER_SERVICE_CODE = "sagemaker"
TRAINING_JOB_USAGE = "training job"  # on-demand training jobs and their warm pools (Q6, Q9)
SPOT_TRAINING_JOB_USAGE = "spot training job"  # managed spot training jobs (Q7)
CLUSTER_USAGE = "cluster"  # SageMaker HyperPod clusters' instances, all clusters together (Q8)


def sagemaker_quota_name(ml_type: str, usage: str) -> str:
    """The Service Quotas name of SageMaker's quota of `ml_type` for `usage` (Q6-Q8):
    `("ml.p4d.24xlarge", TRAINING_JOB_USAGE)` -> `ml.p4d.24xlarge for training job usage`."""
    return f"{ml_type} for {usage} usage"


# Account-wide instance quotas of every SageMaker type together (Q10), checked when listed.
TRAINING_JOBS_TOTAL = "Number of instances across all training jobs"
SPOT_TRAINING_JOBS_TOTAL = "Number of instances across all spot training jobs"  # one listing only
HYPERPOD_TOTAL = "Total number of instances allowed across SageMaker HyperPod clusters"
HYPERPOD_PER_CLUSTER = "Maximum number instances allowed per SageMaker HyperPod cluster"
