"""Live preflight of an AWS stack (`Cloud.live_check`), through boto3 (imported lazily):

- EC2 DescribeInstanceTypeOfferings (LocationType availability-zone-id): is the instance type
  offered in the stack's zone ID, and in which zones of the region otherwise;
- EC2 DescribeInstanceTypes: vCPUs per instance; needed = nodes x vCPUs;
- EC2 DescribeInstances: vCPUs already running (running/pending) against the same quota;
- Service Quotas GetServiceQuota (falling back to GetAWSDefaultServiceQuota): the vCPU quota
  of the family, On-Demand and Spot counted separately (`facts.quotas`).
- EC2 DescribeCapacityReservations, with a `reservation:`: its instance type, zone, kind,
  placement group, size and state against the stack's (`profiles.preflight.aws_reservation`).
"""

from __future__ import annotations

import math
from typing import Any

from clouds.contract import ClusterConfig
from facts.quotas import AwsVcpuQuotas, aws_vcpu_quotas
from profiles.preflight.aws_api import aws_errors, client, new_session
from profiles.preflight.aws_reservation import reservation_findings
from profiles.preflight.finding import RETRY_HINT, Finding, PreflightError


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
