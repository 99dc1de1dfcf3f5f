"""Instances already held against SageMaker's per-type quotas (`profiles.preflight.aws_sagemaker`):

- training jobs: every job InProgress (ListTrainingJobs StatusEquals) and every warm pool kept
  Available after its job (WarmPoolStatusEquals; warm pools count against the training limit,
  `facts.quotas` Q9), each read with DescribeTrainingJob: its `ResourceConfig` (the type chosen
  from a preference list, the instance groups of a heterogeneous job, or the one type) and
  `EnableManagedSpotTraining` (spot jobs count against the spot quota, the others against the
  on-demand one);
- HyperPod clusters: every cluster but the stack's own and failed ones (ListClusters), each
  instance group's instances (DescribeCluster: the larger of CurrentCount and TargetCount, so a
  cluster still growing counts at its target), Spot groups left out (they have their own quota).

A refused or failed call does not stop the check: the finding says what was not counted and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from profiles.preflight.aws_api import aws_errors
from profiles.preflight.finding import RETRY_HINT, PreflightError


class Held(NamedTuple):
    """Instances already counted against one quota.

    Attributes:
        instances: how many, or None when they could not be read.
        counted: what was counted (`1 running job or warm pool`), or why not (one line).
    """

    instances: int | None
    counted: str


@dataclass(frozen=True)
class HeldByType:
    """Instances held per SageMaker type (`ml.p5.48xlarge` -> 4), or None when not read."""

    per_type: Mapping[str, int] | None
    counted: str

    def of(self, ml_type: str) -> Held:
        """What is held of `ml_type`."""
        if self.per_type is None:
            return Held(None, self.counted)
        return Held(self.per_type.get(ml_type, 0), self.counted)

    def total(self) -> Held:
        """What is held of every type together (for the account-wide quotas)."""
        if self.per_type is None:
            return Held(None, self.counted)
        return Held(sum(self.per_type.values()), self.counted)


def training_instances(sagemaker: Any, region: str, spot: bool) -> HeldByType:
    """Instances per type held by training jobs InProgress and warm pools Available, managed
    spot ones when `spot`, the others otherwise (module docstring)."""
    try:
        with aws_errors("sagemaker:ListTrainingJobs", region, PreflightError, RETRY_HINT):
            names = _job_names(sagemaker, StatusEquals="InProgress")
            names += [n for n in _job_names(sagemaker, WarmPoolStatusEquals="Available") if n not in names]
        with aws_errors("sagemaker:DescribeTrainingJob", region, PreflightError, RETRY_HINT):
            counts = [job_instances(sagemaker.describe_training_job(TrainingJobName=n), spot) for n in names]
    except PreflightError as exc:
        return HeldByType(None, f"running jobs not read: {exc}")
    kind = "managed spot " if spot else ""
    held = sum(counts, Counter())
    return HeldByType(dict(held), f"by {sum(1 for c in counts if c)} {kind}training job(s) running or in a warm pool")


def job_instances(described: Mapping[str, Any], spot: bool) -> Counter[str]:
    """Instances per type a DescribeTrainingJob answer holds against the spot (`spot`) or the
    on-demand quotas: the type SageMaker selected from a preference list, else the instance
    groups of a heterogeneous cluster, else `InstanceType` x `InstanceCount`."""
    if bool(described.get("EnableManagedSpotTraining")) != spot:
        return Counter()
    config = described.get("ResourceConfig") or {}
    if config.get("SelectedInstanceType"):
        return Counter({config["SelectedInstanceType"]: int(config.get("SelectedInstanceCount") or 0)})
    held: Counter[str] = Counter()
    for group in config.get("InstanceGroups") or [config]:
        if group.get("InstanceType"):
            held[str(group["InstanceType"])] += int(group.get("InstanceCount") or 0)
    return held


def cluster_instances(sagemaker: Any, region: str, own: str) -> HeldByType:
    """On-demand instances per type held by the region's HyperPod clusters other than `own`
    (the stack's cluster name) and failed ones (module docstring)."""
    try:
        with aws_errors("sagemaker:ListClusters", region, PreflightError, RETRY_HINT):
            summaries = [
                s
                for page in sagemaker.get_paginator("list_clusters").paginate()
                for s in page.get("ClusterSummaries", [])
            ]
        others = [
            s["ClusterName"] for s in summaries if s.get("ClusterName") != own and s.get("ClusterStatus") != "Failed"
        ]
        held: Counter[str] = Counter()
        with aws_errors("sagemaker:DescribeCluster", region, PreflightError, RETRY_HINT):
            for name in others:
                held.update(group_instances(sagemaker.describe_cluster(ClusterName=name)))
    except PreflightError as exc:
        return HeldByType(None, f"other HyperPod clusters not read: {exc}")
    return HeldByType(dict(held), f"by {len(others)} other HyperPod cluster(s) in {region}")


def group_instances(described: Mapping[str, Any]) -> Counter[str]:
    """On-demand instances per type of a DescribeCluster answer's instance groups (Spot
    groups, `CapacityRequirements.Spot`, count against another quota and are left out)."""
    held: Counter[str] = Counter()
    for group in described.get("InstanceGroups") or []:
        if "Spot" in (group.get("CapacityRequirements") or {}):
            continue
        held[str(group.get("InstanceType"))] += max(
            int(group.get("CurrentCount") or 0), int(group.get("TargetCount") or 0)
        )
    return held


def _job_names(sagemaker: Any, **status: str) -> list[str]:
    pages = sagemaker.get_paginator("list_training_jobs").paginate(**status)
    return [s["TrainingJobName"] for page in pages for s in page.get("TrainingJobSummaries", [])]
