"""Preflight (`trainstack check -s NAME`): can the stack's capacity be had, before `pulumi up`?

AWS, live through boto3 (imported lazily):
- EC2 DescribeInstanceTypeOfferings (LocationType availability-zone-id): is the instance type
  offered in the stack's zone ID, and in which zones of the region otherwise;
- EC2 DescribeInstanceTypes: vCPUs per instance; needed = nodes x vCPUs;
- EC2 DescribeInstances: vCPUs already running (running/pending) against the same quota;
- Service Quotas GetServiceQuota (falling back to GetAWSDefaultServiceQuota): the vCPU quota
  of the family, On-Demand and Spot counted separately (`facts.quotas`).
- EC2 DescribeCapacityReservations, with a `reservation:`: its instance type, zone, kind,
  placement group, size and state against the stack's (`profiles.preflight_reservation`).
Azure and GCP: no live quota API is wired in yet, so the check says which quota applies,
how much the stack needs and where to request it.
Before any of these, the stack goes through its component's own `validate_args` (the checks
`trainstack plan` and `pulumi up` run); a refusal is a `fail` finding and the live checks,
which assume a buildable stack, are skipped.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clouds.contract import ClusterConfig
from facts.quotas import AwsVcpuQuotas, aws_vcpu_quotas
from profiles import stack_file as stack_file_module
from profiles.aws_api import aws_errors, client, new_session

RETRY_HINT = "rerun `trainstack check`"
STATUSES = ("ok", "fail", "unknown", "info")


class PreflightError(ValueError):
    """The stack cannot be checked (bad file, missing credentials, API failure); one line.

    Attributes:
        findings: what was already found offline (the component's validation, the catalog)
            when a live check failed; [] when nothing was checked.
    """

    findings: list = []


@dataclass(frozen=True)
class Finding:
    """The outcome of one preflight check.

    Attributes:
        check: what was checked: `config` (the component's own validation), `catalog`,
            `offered`, `quota`, `reservation`.
        status: `ok`, `fail`, `unknown` (could not be checked live) or `info`.
        detail: one line: what was found, with units (vCPUs, GPUs).
        fix: one line: what to do about it; empty when nothing is needed.
    """

    check: str
    status: str
    detail: str
    fix: str = ""


def read_cluster(stack_file: Path) -> ClusterConfig:
    """The validated `trainstack:cluster` of a stack file (`profiles.stack_file.read_cluster`).

    Raises:
        PreflightError: the file is missing, not YAML, its cluster config is invalid or
            contradicts the catalog, or its provider region key (`aws:region`) is unset or
            names another region than the cluster.
    """
    try:
        return stack_file_module.read_cluster(stack_file)[1]
    except stack_file_module.StackFileError as exc:
        raise PreflightError(str(exc)) from None


def preflight(
    cluster: ClusterConfig,
    catalog_version: str | None = None,
    session: Any = None,
    quotas: Any = None,
    name: str = "cluster",
) -> list[Finding]:
    """Every preflight finding for `cluster`: the component's validation, then the live checks.

    Args:
        catalog_version: the current catalog's version, compared with the stack's.
        session: boto3 Session for AWS (default: the usual credential chain).
        quotas: a boto3 `service-quotas` client (default: one from `session`).
        name: the cluster name the component gets: the stack name (`__main__.py` passes
            `pulumi.get_stack()`, falling back to `cluster`).

    Raises:
        PreflightError: unknown provider, missing AWS credentials, or an AWS API failure.
    """
    refused = validation_finding(cluster, name)
    findings = [catalog_finding(cluster, catalog_version, _confirmed(cluster))] if catalog_version else []
    if refused is not None:
        return [refused, *findings]
    if cluster.provider == "aws":
        try:
            return findings + check_aws(cluster, session, quotas)
        except PreflightError as exc:
            exc.findings = findings  # what was found offline still counts
            raise
    from profiles.preflight_guidance import GUIDANCE

    guide = GUIDANCE.get(cluster.provider)
    if guide is None:
        known = ", ".join(["aws", *sorted(GUIDANCE)])
        raise PreflightError(f"provider '{cluster.provider}': trainstack check knows {known}")
    return findings + guide(cluster)


def component_validation(provider: str) -> Callable[..., None] | None:
    """The `validate_args` of `provider`'s component, imported on first use; None if unregistered.

    It sits in the cloud's pure rules (`clouds.registry.validator`: `clouds.aws.validate`), which
    import no Pulumi or cloud SDK, so `check` stays light.
    """
    from clouds.registry import validator

    return validator(provider)


def validation_finding(cluster: ClusterConfig, name: str = "cluster") -> Finding | None:
    """A `fail` finding with the component's one-line refusal of `cluster`; None if it builds.

    Each `validate_args` takes the config as `args` and some the cluster name as `name`
    (arguments the Pulumi program never passes, such as Tencent's `spot_max_price`, keep
    their defaults, as in `pulumi up`).
    """
    validate = component_validation(cluster.provider)
    if validate is None:
        return None
    given = {"args": cluster, "name": name}
    try:
        validate(**{p: given[p] for p in inspect.signature(validate).parameters if p in given})
    except ValueError as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return Finding(
            "config",
            "fail",
            message,
            "change the stack file as it says; `trainstack plan` and `pulumi up` refuse it until then",
        )
    return None


def _confirmed(cluster: ClusterConfig) -> bool:
    from profiles.stack_price import price_from_catalog

    return price_from_catalog(cluster).verified


def catalog_finding(cluster: ClusterConfig, current: str, confirmed: bool = True) -> Finding:
    """Whether the stack was priced with the current catalog (deploys never re-price).

    Args:
        confirmed: False when the current catalog cannot price the cluster as configured
            (`profiles.stack_price`), so the recorded price is only the file's own number.
    """
    if cluster.usd_per_hour is None:
        return Finding(
            "catalog",
            "info",
            f"stack records no price (written against catalog {cluster.catalog_version})",
            "`trainstack plan` prices it from the current catalog, or says what is missing",
        )
    if not confirmed:
        return Finding(
            "catalog",
            "unknown",
            f"stack records ${cluster.usd_per_hour:g}/hour, which catalog {current} cannot confirm",
            "`trainstack plan` says which price is missing; a set budget fails until the catalog has it",
        )
    priced = f"stack priced at ${cluster.usd_per_hour:g}/hour with catalog {cluster.catalog_version}"
    if cluster.catalog_version == current:
        return Finding("catalog", "ok", f"{priced} (the current catalog)")
    return Finding(
        "catalog",
        "info",
        f"{priced}; the current catalog is {current}",
        "pulumi keeps the recorded price; rerun `trainstack resolve ... --write-stack` to re-price",
    )


def check_aws(cluster: ClusterConfig, session: Any = None, quotas: Any = None) -> list[Finding]:
    """Zone offering and vCPU quota of an AWS stack, live (see the module docstring)."""
    session = new_session(session)
    ec2 = client(session, "ec2", cluster.region)
    zones = _offered_zones(ec2, cluster)
    offered = _offered_finding(cluster, zones)
    if not zones:
        return [offered]
    vcpus = _vcpus(ec2, cluster.region, [cluster.instance_type])[cluster.instance_type]
    codes = aws_vcpu_quotas(cluster.instance_type)
    spot = cluster.purchase == "spot"
    used = _vcpus_in_use(ec2, cluster.region, codes, spot)
    limit = _quota_value(
        quotas or client(session, "service-quotas", cluster.region),
        cluster.region,
        codes.spot if spot else codes.on_demand,
    )
    from profiles.preflight_reservation import reservation_findings  # it imports this module

    quota = quota_finding(cluster, codes, spot, cluster.nodes * vcpus, used, limit)
    return [offered, quota, *reservation_findings(ec2, cluster)]


def quota_finding(
    cluster: ClusterConfig, codes: AwsVcpuQuotas, spot: bool, need: float, used: float, limit: float | None
) -> Finding:
    """Compare vCPUs needed plus in use (running/pending) with the quota's value."""
    code, name = (codes.spot, codes.spot_name) if spot else (codes.on_demand, codes.on_demand_name)
    where = f"{name} ({code}) in {cluster.region}"
    if limit is None:
        return Finding(
            "quota", "unknown", f"{where}: Service Quotas returned no value", "check it in the Service Quotas console"
        )
    detail = f"{where}: need {need:g} vCPUs ({cluster.nodes} x {cluster.instance_type}) + {used:g} in use"
    total = need + used
    if total <= limit:
        return Finding("quota", "ok", f"{detail} <= quota {limit:g}")
    desired = math.ceil(total)
    return Finding(
        "quota",
        "fail",
        f"{detail} > quota {limit:g}",
        f"request {code} >= {desired} vCPUs in {cluster.region}: aws service-quotas "
        f"request-service-quota-increase --service-code ec2 --quota-code {code} "
        f"--desired-value {desired} --region {cluster.region}",
    )


def _offered_finding(cluster: ClusterConfig, zones: list[str]) -> Finding:
    where = f"{cluster.instance_type} in {cluster.zone} ({cluster.region})"
    if cluster.zone in zones:
        return Finding("offered", "ok", f"{where} is offered")
    if zones:
        return Finding(
            "offered",
            "fail",
            f"{where} is not offered; offered in {', '.join(zones)}",
            f"set zone to one of {', '.join(zones)} (or rerun `trainstack resolve`)",
        )
    return Finding(
        "offered",
        "fail",
        f"{cluster.instance_type} is offered in no zone of {cluster.region}",
        "rerun `trainstack resolve` after `trainstack catalog refresh --provider aws`",
    )


def _offered_zones(ec2: Any, cluster: ClusterConfig) -> list[str]:
    zones: set[str] = set()
    with aws_errors("ec2:DescribeInstanceTypeOfferings", cluster.region, PreflightError, RETRY_HINT):
        pages = ec2.get_paginator("describe_instance_type_offerings").paginate(
            LocationType="availability-zone-id", Filters=[{"Name": "instance-type", "Values": [cluster.instance_type]}]
        )
        for page in pages:
            zones.update(o["Location"] for o in page.get("InstanceTypeOfferings", []) if "Location" in o)
    return sorted(zones)


def _vcpus(ec2: Any, region: str, instance_types: list[str]) -> dict[str, float]:
    """Default vCPUs per instance type (DescribeInstanceTypes VCpuInfo.DefaultVCpus)."""
    found: dict[str, float] = {}
    with aws_errors("ec2:DescribeInstanceTypes", region, PreflightError, RETRY_HINT):
        pages = ec2.get_paginator("describe_instance_types").paginate(InstanceTypes=sorted(set(instance_types)))
        for page in pages:
            found.update(
                {t["InstanceType"]: float(t["VCpuInfo"]["DefaultVCpus"]) for t in page.get("InstanceTypes", [])}
            )
    missing = set(instance_types) - found.keys()
    if missing:
        raise PreflightError(
            f"AWS ec2:DescribeInstanceTypes in {region} knows no {', '.join(sorted(missing))}; "
            "check instance_type in the stack file"
        )
    return found


def _vcpus_in_use(ec2: Any, region: str, codes: AwsVcpuQuotas, spot: bool) -> float:
    """vCPUs of running/pending instances counting against the same quota (On-Demand or Spot)."""
    instances = []
    with aws_errors("ec2:DescribeInstances", region, PreflightError, RETRY_HINT):
        pages = ec2.get_paginator("describe_instances").paginate(
            Filters=[{"Name": "instance-state-name", "Values": ["pending", "running"]}]
        )
        for page in pages:
            instances += [i for r in page.get("Reservations", []) for i in r.get("Instances", [])]
    counted = [
        i
        for i in instances
        if aws_vcpu_quotas(i["InstanceType"]) == codes and (i.get("InstanceLifecycle") == "spot") == spot
    ]
    if not counted:
        return 0.0
    per_type = _vcpus(ec2, region, [i["InstanceType"] for i in counted])
    return sum(per_type[i["InstanceType"]] for i in counted)


def _quota_value(quotas: Any, region: str, code: str) -> float | None:
    """The applied value of EC2 quota `code`, else its AWS default; None when neither exists."""
    from botocore.exceptions import ClientError

    for operation in ("get_service_quota", "get_aws_default_service_quota"):
        call = "servicequotas:" + "".join(p.title() for p in operation.split("_")).replace("Aws", "AWS")
        with aws_errors(call, region, PreflightError, RETRY_HINT):
            try:
                return float(getattr(quotas, operation)(ServiceCode="ec2", QuotaCode=code)["Quota"]["Value"])
            except ClientError as exc:
                if exc.response.get("Error", {}).get("Code") != "NoSuchResourceException":
                    raise
            except (KeyError, TypeError, ValueError):
                return None
    return None
