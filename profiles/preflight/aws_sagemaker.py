"""Live preflight of a SageMaker stack (`Platform.live_check` of `sagemaker` and `hyperpod`):
SageMaker's own quotas, not EC2's, through boto3 (imported lazily).

SageMaker launches a training job's or a HyperPod cluster's instances itself, so they count
against SageMaker's per-instance-type quotas in Service Quotas (service code `sagemaker`), in
instances, not against EC2's vCPU quotas (`facts.quotas` Q6-Q9):
- a training job: "<ml type> for training job usage", or "<ml type> for spot training job
  usage" with managed spot training (`purchase: spot`). SageMaker picks the job's zone
  (CreateTrainingJob takes no subnet here), so no zone is checked;
- a HyperPod cluster: "<ml type> for cluster usage" of the workers and of the Slurm controller,
  all the account's clusters together (Q8); HyperPod places the groups in the stack's subnet;
- when Service Quotas lists them, the account-wide instance quotas of every type together
  (Q10): across all training jobs (spot ones apart), across all HyperPod clusters, per cluster.
Each type has its own quota code, so the quota is found by name: ListServiceQuotas (applied
values), falling back to ListAWSDefaultServiceQuotas (defaults, often 0).
Instances already held count too (`profiles.preflight.aws_sagemaker_usage`): training jobs
InProgress and warm pools kept Available; the other HyperPod clusters' instance groups.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from clouds.contract import ClusterConfig
from facts.quotas import (
    CLUSTER_USAGE,
    HYPERPOD_PER_CLUSTER,
    HYPERPOD_TOTAL,
    SAGEMAKER_SERVICE_CODE,
    SPOT_TRAINING_JOB_USAGE,
    SPOT_TRAINING_JOBS_TOTAL,
    TRAINING_JOB_USAGE,
    TRAINING_JOBS_TOTAL,
    sagemaker_quota_name,
)
from profiles.preflight.aws_api import aws_errors, client, new_session
from profiles.preflight.aws_sagemaker_usage import Held, cluster_instances, training_instances
from profiles.preflight.finding import RETRY_HINT, Finding, PreflightError

PAGE_SIZE = 100  # the most quotas one ListServiceQuotas page returns (MaxResults, 1-100)
LISTS = (
    ("list_service_quotas", "servicequotas:ListServiceQuotas"),
    (
        "list_aws_default_service_quotas",
        "servicequotas:ListAWSDefaultServiceQuotas",
    ),
)


def check_training_job(
    cluster: ClusterConfig, session: Any = None, quotas: Any = None, name: str = "cluster"
) -> list[Finding]:
    """A SageMaker training-job stack's quota, live (module docstring); `name` is unused (a
    training job holds no instances between runs)."""
    session = new_session(session)
    quotas = quotas or client(session, "service-quotas", cluster.region)
    return read_training_job(cluster, quotas, client(session, "sagemaker", cluster.region))


def check_hyperpod(
    cluster: ClusterConfig, session: Any = None, quotas: Any = None, name: str = "cluster"
) -> list[Finding]:
    """A HyperPod stack's quotas, live (module docstring); `name` is the stack's cluster name,
    whose own HyperPod cluster, if it exists, is not counted as held by another."""
    session = new_session(session)
    quotas = quotas or client(session, "service-quotas", cluster.region)
    return read_hyperpod(cluster, quotas, client(session, "sagemaker", cluster.region), name)


def read_training_job(cluster: ClusterConfig, quotas: Any, sagemaker: Any) -> list[Finding]:
    """The training job's zone note, its per-type quota finding and, when listed, the
    account-wide one (Q10), from a `service-quotas` and a `sagemaker` client in its region."""
    spot = cluster.purchase == "spot"
    ml = _ml_type(cluster)
    own = sagemaker_quota_name(ml, SPOT_TRAINING_JOB_USAGE if spot else TRAINING_JOB_USAGE)
    total = SPOT_TRAINING_JOBS_TOTAL if spot else TRAINING_JOBS_TOTAL
    listed = listed_quotas(quotas, cluster.region, [own, total])
    held = training_instances(sagemaker, cluster.region, spot)
    placed = Finding(
        "offered",
        "info",
        "SageMaker picks the zone of a training job (CreateTrainingJob takes no zone)"
        + ("" if cluster.zone == cluster.region else f"; zone {cluster.zone} of the stack is not used"),
    )
    what = f"{cluster.nodes}-instance {'managed spot ' if spot else ''}training job"
    found = [placed, quota_finding(own, listed.get(own), cluster.nodes, held.of(ml), cluster.region, what)]
    if total in listed:  # every type together (Q10)
        found.append(quota_finding(total, listed[total], cluster.nodes, held.total(), cluster.region, what))
    return found


def read_hyperpod(cluster: ClusterConfig, quotas: Any, sagemaker: Any, name: str) -> list[Finding]:
    """The HyperPod pool's zone note, one quota finding per instance type it holds (the
    workers, the controller) and, when listed, the account-wide and per-cluster ones (Q10),
    from a `service-quotas` and a `sagemaker` client."""
    from clouds.aws.hyperpod import CONTROLLER_TYPE, cluster_name

    needs = {_ml_type(cluster): cluster.nodes}
    needs[CONTROLLER_TYPE] = needs.get(CONTROLLER_TYPE, 0) + 1
    names = {ml: sagemaker_quota_name(ml, CLUSTER_USAGE) for ml in needs}
    listed = listed_quotas(quotas, cluster.region, [*names.values(), HYPERPOD_TOTAL, HYPERPOD_PER_CLUSTER])
    held = cluster_instances(sagemaker, cluster.region, cluster_name(name))
    placed = Finding(
        "offered",
        "info",
        f"HyperPod places the instance groups in the stack's subnet in {cluster.zone}; whether SageMaker has "
        f"{_ml_type(cluster)} capacity there shows only when CreateCluster runs (`trainstack status`)",
    )
    found = [placed]
    for ml, need in needs.items():
        role = "Slurm controller" if ml == CONTROLLER_TYPE else "worker"
        what = f"{need} HyperPod {role} instance{'s' if need != 1 else ''}"
        found.append(quota_finding(names[ml], listed.get(names[ml]), need, held.of(ml), cluster.region, what))
    size = sum(needs.values())
    what = f"the cluster's {size} instances, controller included"
    if HYPERPOD_TOTAL in listed:
        found.append(quota_finding(HYPERPOD_TOTAL, listed[HYPERPOD_TOTAL], size, held.total(), cluster.region, what))
    if HYPERPOD_PER_CLUSTER in listed:
        found.append(
            quota_finding(HYPERPOD_PER_CLUSTER, listed[HYPERPOD_PER_CLUSTER], size, None, cluster.region, what)
        )
    return found


def quota_finding(
    quota_name: str, quota: Mapping[str, Any] | None, need: int, held: Held | None, region: str, what: str
) -> Finding:
    """Instances needed plus held, against the quota's value (pure).

    Args:
        quota_name: the quota's name (`facts.quotas.sagemaker_quota_name`).
        quota: its Service Quotas record (`QuotaCode`, `Value`), or None when none is listed.
        need: instances the stack asks for.
        held: instances already counted against the same quota, or why they were not read;
            None for a quota nothing else counts against (one cluster's size).
        what: what needs them, for the detail (`2-instance training job`).
    """
    where = f"'{quota_name}'"
    if quota is None or quota.get("Value") is None:
        return Finding(
            "quota",
            "unknown",
            f"{where}: Service Quotas lists no such SageMaker quota in {region} (applied or default)",
            f"SageMaker may not offer the type for this use in {region}: look for it in the Service Quotas "
            "console (Amazon SageMaker AI), or pick another region or type",
        )
    code, limit = str(quota.get("QuotaCode", "?")), float(quota["Value"])
    where = f"{where} ({code}) in {region}"
    if held is None:
        counted = ""
    elif held.instances is not None:
        counted = f" + {held.instances} held ({held.counted})"
    else:  # the request may need more than this says
        counted = f", not counting instances already held ({held.counted})"
    detail = f"{where}: need {need} instances ({what}){counted}"
    total = need + ((held.instances or 0) if held is not None else 0)
    if total > limit:
        desired = math.ceil(total)
        return Finding(
            "quota",
            "fail",
            f"{detail} > quota {limit:g}; SageMaker refuses it (ResourceLimitExceeded) until raised",
            f"request {code} >= {desired} instances in {region}: aws service-quotas request-service-quota-increase "
            f"--service-code {SAGEMAKER_SERVICE_CODE} --quota-code {code} --desired-value {desired} --region {region}",
        )
    if held is not None and held.instances is None:
        return Finding(
            "quota",
            "unknown",
            f"{detail} <= quota {limit:g}",
            "compare with the SageMaker console's running jobs and clusters, or allow the calls named",
        )
    return Finding("quota", "ok", f"{detail} <= quota {limit:g}")


def listed_quotas(quotas: Any, region: str, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """SageMaker's quotas called `names` (matched without regard to case or spacing): the
    applied values (ListServiceQuotas), then AWS's defaults for the names not found there
    (ListAWSDefaultServiceQuotas); a name neither lists is left out. Paging stops once every
    name is found.

    Raises:
        PreflightError: a refused or failed call (one line naming the call and the fix).
    """
    wanted = {_key(n): n for n in names}
    found: dict[str, dict[str, Any]] = {}
    for operation, call in LISTS:
        missing = {k: n for k, n in wanted.items() if n not in found}
        if not missing:
            break
        with aws_errors(call, region, PreflightError, RETRY_HINT):
            pages = quotas.get_paginator(operation).paginate(
                ServiceCode=SAGEMAKER_SERVICE_CODE, PaginationConfig={"PageSize": PAGE_SIZE}
            )
            for page in pages:
                for quota in page.get("Quotas", []):
                    if (name := missing.pop(_key(str(quota.get("QuotaName", ""))), None)) is not None:
                        found[name] = quota
                if not missing:
                    break
    return found


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def _ml_type(cluster: ClusterConfig) -> str:
    """The stack's instance type as its platform's API spells it (`ml.p4d.24xlarge`)."""
    from clouds.platform_lookup import find

    platform = find(cluster.provider, cluster.platform)
    return platform.instance_name(cluster.instance_type) if platform else cluster.instance_type
