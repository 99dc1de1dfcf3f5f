"""The SageMaker HyperPod cluster as a Pulumi dynamic resource over boto3 (`sagemaker`
CreateCluster / UpdateCluster / DeleteCluster / DescribeCluster, AddTags / DeleteTags).

Why dynamic: pulumi-aws 7.51.1 has no HyperPod resource and `aws-native` (Cloud Control's
`AWS::SageMaker::Cluster`) is not a dependency; boto3 is the `aws` extra's own. The provider is
stateless (a client per call) and sends requests built by the pure `clouds.aws.hyperpod`.

What a real cluster does, and what the provider does about it:
- create takes 10-25 minutes (alchemy.run's HyperPod Cluster docs; longer for many nodes) and
  ends `InService` or `Failed`; the provider waits (at most `CREATE_WAIT_S`) so `pulumi up`
  reports the outcome, and deletes a `Failed` cluster before raising its `FailureMessage`, so
  the next `pulumi up` can create it again under the same name;
- the cluster name, VPC and orchestrator are fixed at create (UpdateCluster takes none of them):
  a change replaces the cluster, deleting it first (the name is reused);
- node counts, the worker type (a new group, the old one deleted), lifecycle script, health
  checks and NodeRecovery change in place through UpdateCluster; tags through AddTags/DeleteTags;
- delete waits until DescribeCluster no longer finds the cluster.
"""

from __future__ import annotations

import time
from typing import Any

from pulumi.dynamic import CreateResult, DiffResult, ResourceProvider, UpdateResult

# Waits (assumed, above the documented 10-25 minute create): create and update 3 h, delete 1 h;
# DescribeCluster polled every 30 s.
CREATE_WAIT_S = 3 * 3600
DELETE_WAIT_S = 3600
POLL_S = 30.0


def _client(region: str) -> Any:
    import boto3

    return boto3.client("sagemaker", region_name=region)


def _status(api: Any, name: str) -> dict[str, Any] | None:
    """DescribeCluster's answer, or None once the cluster is gone."""
    from botocore.exceptions import ClientError

    try:
        return api.describe_cluster(ClusterName=name)  # type: ignore[no-any-return]
    except ClientError as exc:
        error = exc.response.get("Error", {})
        code, message = error.get("Code"), str(error.get("Message", "")).lower()
        if code == "ResourceNotFound" or (code == "ValidationException" and "could not find" in message):
            return None
        raise


def wait_in_service(api: Any, name: str, limit_s: float = CREATE_WAIT_S, poll_s: float = POLL_S) -> str:
    """Poll until the cluster is `InService`; return its status.

    Raises:
        RuntimeError: `Failed` / `RollingBack` (with HyperPod's FailureMessage), gone, or still
            not in service after `limit_s` seconds.
    """
    deadline = time.monotonic() + limit_s
    while True:
        answer = _status(api, name)
        if answer is None:
            raise RuntimeError(f"HyperPod cluster {name} disappeared while it was being created or updated")
        status = answer["ClusterStatus"]
        if status == "InService":
            return str(status)
        if status in ("Failed", "RollingBack"):
            raise RuntimeError(
                f"HyperPod cluster {name} is {status}: {answer.get('FailureMessage') or 'no reason given'}"
            )
        if time.monotonic() >= deadline:
            raise RuntimeError(f"HyperPod cluster {name} still {status} after {limit_s / 60:.0f} min")
        time.sleep(poll_s)


def wait_gone(api: Any, name: str, limit_s: float = DELETE_WAIT_S, poll_s: float = POLL_S) -> None:
    """Poll until DescribeCluster no longer finds the cluster.

    Raises:
        RuntimeError: still there after `limit_s` seconds.
    """
    deadline = time.monotonic() + limit_s
    while (answer := _status(api, name)) is not None:
        if time.monotonic() >= deadline:
            raise RuntimeError(f"HyperPod cluster {name} still {answer['ClusterStatus']} after {limit_s / 60:.0f} min")
        time.sleep(poll_s)


def _tag_list(tags: dict[str, str] | None) -> list[dict[str, str]]:
    return [{"Key": key, "Value": value} for key, value in sorted((tags or {}).items())]


class HyperPodClusterProvider(ResourceProvider):
    """Create, update and delete one HyperPod cluster from its CreateCluster request.

    Inputs: `region`, `request` (`clouds.aws.hyperpod.cluster_request`), `tags` (a mapping).
    Outputs add `cluster_arn` and `status`.
    """

    def create(self, props: dict[str, Any]) -> CreateResult:
        api = _client(props["region"])
        request = props["request"]
        name = request["ClusterName"]
        extra = {"Tags": _tag_list(props.get("tags"))} if props.get("tags") else {}
        arn = api.create_cluster(**request, **extra)["ClusterArn"]
        try:
            status = wait_in_service(api, name)
        except RuntimeError:
            api.delete_cluster(ClusterName=name)  # a Failed cluster holds the name
            raise
        return CreateResult(name, {**props, "cluster_arn": arn, "status": status})

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        """Replace on a fixed-at-create field or region (deleted first: the name is reused);
        update on anything else that differs."""
        from clouds.aws.hyperpod import replaced_by

        replaces = replaced_by(olds.get("request") or {}, news.get("request") or {})
        replaces = ["request"] if replaces else []
        if olds.get("region") != news.get("region"):
            replaces.append("region")
        changed = any(olds.get(k) != news.get(k) for k in ("region", "request", "tags"))
        return DiffResult(changes=changed, replaces=replaces, delete_before_replace=True)

    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        """UpdateCluster for the instance groups and NodeRecovery, AddTags/DeleteTags for tags;
        waits until the cluster is back `InService`."""
        from clouds.aws.hyperpod import update_request

        api = _client(news["region"])
        request = update_request(olds["request"], news["request"])
        if request is not None:
            api.update_cluster(**request)
        arn = olds["cluster_arn"]
        old_tags, new_tags = olds.get("tags") or {}, news.get("tags") or {}
        if gone := sorted(set(old_tags) - set(new_tags)):
            api.delete_tags(ResourceArn=arn, TagKeys=gone)
        if changed := {k: v for k, v in new_tags.items() if old_tags.get(k) != v}:
            api.add_tags(ResourceArn=arn, Tags=_tag_list(changed))
        status = wait_in_service(api, id_) if request is not None else olds.get("status", "InService")
        return UpdateResult({**news, "cluster_arn": arn, "status": status})

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """DeleteCluster (its nodes and their local storage go; the pool's bucket and file
        system are other resources and stay), then wait until it is gone."""
        api = _client(props["region"])
        if _status(api, id_) is None:
            return
        api.delete_cluster(ClusterName=id_)
        wait_gone(api, id_)
