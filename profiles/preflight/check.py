"""Preflight (`trainstack check -s NAME`): can the stack's capacity be had, before `pulumi up`?

A cloud with live checks names them in `Cloud.live_check` (AWS: `profiles.preflight.aws`, live
through boto3), and a managed platform whose instances count against its own quotas names its
own in `Platform.live_check` (SageMaker and HyperPod: `profiles.preflight.aws_sagemaker`), run
instead of the cloud's; the others get offline guidance (`profiles.preflight.guidance`: which quota
applies, how much the stack needs and where to request it).
Before any of these, the stack goes through its component's own `validate_args` (the checks
`trainstack plan` and `pulumi up` run); a refusal is a `fail` finding and the live checks,
which assume a buildable stack, are skipped. (`trainstack check` reads the stack with
`read_cluster`, which already refuses such a stack as input to fix, exit 2, as `plan` does;
the finding serves callers that pass a `ClusterConfig` built some other way.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clouds.base import load
from clouds.contract import ClusterConfig
from clouds.platforms import Platform
from clouds.registry import CLOUDS
from clouds.words import usd_rate
from profiles.preflight.finding import Finding, PreflightError
from profiles.stack import file as stack_file_module


def read_cluster(stack_file: Path) -> ClusterConfig:
    """The validated `trainstack:cluster` of a stack file (`profiles.stack.file.read_cluster`).

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
    findings = [catalog_finding(cluster, catalog_version, *_catalog_price(cluster))] if catalog_version else []
    if refused is not None:
        return [refused, *findings]
    found = CLOUDS.get(cluster.provider)
    own = live_platform(cluster)
    live: Callable[..., list[Finding]] | None = None
    if own is not None:  # the platform's instances count against its own quotas
        live = functools.partial(load(own.live_check), name=name)
    elif found is not None and found.live_check is not None:
        live = load(found.live_check)
    if live is not None:
        try:
            return findings + live(cluster, session, quotas)
        except PreflightError as exc:
            exc.findings = findings  # what was found offline still counts
            raise
    from profiles.preflight.guidance import GUIDANCE

    guide = GUIDANCE.get(cluster.provider)
    if guide is None:
        known = ", ".join([*(name for name, c in CLOUDS.items() if c.live_check), *sorted(GUIDANCE)])
        raise PreflightError(f"provider '{cluster.provider}': trainstack check knows {known}")
    return findings + guide(cluster, name) + ([] if reads_live(cluster) else [offline_only_finding(cluster)])


def reads_live(cluster: ClusterConfig) -> bool:
    """Whether `trainstack check` calls a cloud API for `cluster` (and so needs credentials):
    its platform's or its cloud's live check, or a capacity signal its cloud publishes for
    this stack (`<cloud>_signals.reads`: Azure's spot score for Spot stacks, GCP's VM
    reservations). False for a stack checked by offline guidance alone."""
    import importlib

    found = CLOUDS.get(cluster.provider)
    if live_platform(cluster) is not None or (found is not None and found.live_check is not None):
        return True
    try:
        module = importlib.import_module(f"profiles.preflight.{cluster.provider}_signals")
    except ModuleNotFoundError:
        return False
    return bool(module.reads(cluster))


def offline_only_finding(cluster: ClusterConfig) -> Finding:
    """The `live` line of a stack whose checks are all offline guidance: nothing is read from
    the cloud, so no credentials are needed and nothing fails for want of them."""
    found = CLOUDS.get(cluster.provider)
    cloud = found.display_name if found else cluster.provider
    return Finding(
        "live",
        "info",
        f"nothing read live: trainstack calls no {cloud} API for this stack ({cluster.purchase} "
        f"{cluster.instance_type}), so no credentials are needed; the `?` lines are to confirm by hand",
        "`trainstack check` exits 0 unless a check fails; confirm each `?` line in the console before `pulumi up`",
    )


def live_platform(cluster: ClusterConfig) -> Platform | None:
    """The stack's managed platform when it has its own live check (`Platform.live_check`:
    SageMaker's quotas for a SageMaker or HyperPod stack), else None (the cloud's checks)."""
    from clouds.platform_lookup import find

    platform = find(cluster.provider, cluster.platform)
    return platform if platform is not None and platform.live_check else None


def component_validation(provider: str, platform: str | None = None) -> Callable[..., None] | None:
    """The `validate_args` of `provider`'s component (or of its managed `platform`'s pool, as
    `profiles.stack.file` checks a stack), imported on first use; None if unregistered.

    It sits in the cloud's pure rules (`clouds.registry.validator`: `clouds.aws.validate`), which
    import no Pulumi or cloud SDK, so `check` stays light.
    """
    from clouds.registry import validator

    return validator(provider, platform)


def validation_finding(cluster: ClusterConfig, name: str = "cluster") -> Finding | None:
    """A `fail` finding with the component's one-line refusal of `cluster`; None if it builds.

    Every `validate_args` takes `(args, name)` (`Cloud.validator`); arguments the Pulumi
    program never passes, such as Tencent's `spot_max_price`, keep their defaults, as in
    `pulumi up`.
    """
    validate = component_validation(cluster.provider, cluster.platform)
    if validate is None:
        return None
    try:
        validate(cluster, name)
    except ValueError as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return Finding(
            "config",
            "fail",
            message,
            "change the stack file as it says; `trainstack plan` and `pulumi up` refuse it until then",
        )
    return None


def what_plan_adds(cluster: ClusterConfig) -> str:
    """What `trainstack plan`'s USD/hour prices beside the nodes' compute for `cluster`, the
    parts of `profiles.cost.cluster_cost.ClusterCost`: its file system, its bucket's requests,
    the on-demand fill of a spot shortfall; a stack with none of them (a SageMaker training job)
    is priced the same."""
    parts = [
        text
        for text, present in (
            ("the file system", cluster.file_system is not None),
            ("the bucket's requests", cluster.data is not None),
            ("the on-demand fill of a spot shortfall", cluster.on_demand_after_minutes is not None),
        )
        if present
    ]
    if not parts:
        return "`trainstack plan` prices the same: the stack has no file system or dataset"
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"`trainstack plan` adds {listed}"


def _catalog_price(cluster: ClusterConfig) -> tuple[bool, float | None]:
    """(whether the current catalog prices the cluster as configured, its compute price in
    USD/hour), from `profiles.stack.price.price_from_catalog`: the price `plan` shows."""
    from profiles.stack.price import price_from_catalog

    price = price_from_catalog(cluster)
    return price.verified, price.usd_per_hour


def catalog_finding(
    cluster: ClusterConfig, current: str, confirmed: bool = True, catalog_usd_per_hour: float | None = None
) -> Finding:
    """Whether the stack was priced with the current catalog (deploys never re-price).

    Args:
        confirmed: False when the current catalog cannot price the cluster as configured
            (`profiles.stack.price`), so the recorded price is only the file's own number.
        catalog_usd_per_hour: the current catalog's compute price for the cluster as
            configured, USD/hour (`plan`'s figure); when it differs from the recorded one
            (a hand-edited node count, type or purchase) the finding says so and gives both.
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
            f"stack records a compute price of {usd_rate(cluster.usd_per_hour)}/hour for its nodes, which catalog {current} "
            "cannot confirm",
            "`trainstack plan` says which price is missing; a set budget fails until the catalog has it",
        )
    from profiles.stack.price import TOLERANCE

    if catalog_usd_per_hour is not None and abs(catalog_usd_per_hour - cluster.usd_per_hour) >= TOLERANCE:
        return Finding(
            "catalog",
            "info",
            f"stack records {usd_rate(cluster.usd_per_hour)}/hour for its nodes' compute, but {cluster.nodes} x "
            f"{cluster.instance_type} {cluster.purchase} costs {usd_rate(catalog_usd_per_hour)}/hour in catalog {current} "
            "(USD; `trainstack plan` shows and budgets the catalog's price)",
            "rerun `trainstack resolve ... --write-stack` (with --force to replace hand edits) to record it",
        )
    priced = (
        f"stack prices its nodes' compute at {usd_rate(cluster.usd_per_hour)}/hour (USD; {what_plan_adds(cluster)}) "
        f"with catalog {cluster.catalog_version}"
    )
    if cluster.catalog_version == current:
        return Finding("catalog", "ok", f"{priced} (the current catalog)")
    return Finding(
        "catalog",
        "info",
        f"{priced}; the current catalog is {current}",
        "pulumi keeps the recorded price; rerun `trainstack resolve ... --write-stack` to re-price",
    )
