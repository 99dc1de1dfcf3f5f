"""`ModelArtsPool`: a ModelArts dedicated resource pool (Ascend 910B flavors) and its network,
as Pulumi dynamic resources over the official ModelArts SDK (`huaweicloudsdkmodelarts`).

Why a dynamic provider rather than the Terraform bridge: pulumi-huaweicloud 0.0.12 has no
ModelArts pool resource, and bridging the Terraform provider's `huaweicloud_modelarts_resource_pool`
needs `pulumi package add terraform-provider` (the Pulumi CLI generating a local SDK at install
time) on every machine that runs the program; the SDK is a plain PyPI dependency of the `china`
extra, released with the service (3.1.x, weekly), and the providers here follow the Baidu
components' pattern (stateless classes, clients made in each call, bodies built by pure
functions in `clouds.huaweicloud.modelarts`). Credentials: `HUAWEICLOUD_SDK_AK`,
`HUAWEICLOUD_SDK_SK` and `HUAWEICLOUD_SDK_PROJECT_ID`, the Huawei Cloud SDK's own variables
(`clouds.huaweicloud.modelarts.credential_values`; the older `HUAWEICLOUD_ACCESS_KEY` names too).
"""

from __future__ import annotations

from typing import Any

import pulumi
from pulumi.dynamic import CreateResult, DiffResult, ResourceProvider

from clouds.contract import ClusterConfig
from clouds.huaweicloud import modelarts as ma
from components.cluster_base import ClusterOutputs, GpuClusterBase, pool_outputs

TYPE_TOKEN = "trainstack:huaweicloud:ModelArtsPool"


class _ModelArtsProvider(ResourceProvider):
    """Create / delete one ModelArts object from its request body; any change replaces it.
    `INPUTS` are its input properties (all required but `tags`)."""

    INPUTS: tuple[str, ...] = ()
    REQUIRED: tuple[str, ...] = ("region", "body")

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        """Any change of the region or the body replaces the object (deleted first: a pool's
        nodes are the quota); tags are set at creation only."""
        changed = [key for key in ("region", "body") if olds.get(key) != news.get(key)]
        return DiffResult(changes=bool(changed), replaces=changed, delete_before_replace=True)


class ModelArtsNetworkProvider(_ModelArtsProvider):
    """The pool's ModelArts network (CreateNetwork / DeleteNetwork)."""

    INPUTS = ("region", "body")

    def create(self, props: dict[str, Any]) -> CreateResult:
        from huaweicloudsdkmodelarts.v1 import CreateNetworkRequest

        answer = ma.client(props["region"]).create_network(CreateNetworkRequest(body=props["body"]))
        name = answer.metadata.name
        return CreateResult(name, {**props, "network_name": name})

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        from huaweicloudsdkmodelarts.v1 import DeleteNetworkRequest

        ma.client(props["region"]).delete_network(DeleteNetworkRequest(network_name=id_))


class ModelArtsResourcePoolProvider(_ModelArtsProvider):
    """The dedicated resource pool (CreatePool / DeletePool, then its tags)."""

    INPUTS = ("region", "body", "tags")

    def create(self, props: dict[str, Any]) -> CreateResult:
        from huaweicloudsdkmodelarts.v1 import BatchCreatePoolTagsRequest, CreatePoolRequest

        api = ma.client(props["region"])
        answer = api.create_pool(CreatePoolRequest(body=props["body"]))
        name = answer.metadata.name
        tags = [{"key": key, "value": value} for key, value in sorted((props.get("tags") or {}).items())]
        if tags:  # the pool's cost tags (BatchCreatePoolTags: TMS tags of the pool)
            api.batch_create_pool_tags(BatchCreatePoolTagsRequest(pool_name=name, body={"tags": tags}))
        return CreateResult(name, {**props, "pool_name": name})

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        from huaweicloudsdkmodelarts.v1 import DeletePoolRequest

        ma.client(props["region"]).delete_pool(DeletePoolRequest(pool_name=id_))


class ModelArtsNetwork(pulumi.dynamic.Resource, module="huaweicloud", name="ModelArtsNetwork"):
    """A ModelArts network (`pulumi-python:dynamic/huaweicloud:ModelArtsNetwork`)."""

    def __init__(self, name: str, region: str, body: dict, opts: pulumi.ResourceOptions | None = None) -> None:
        props = {"region": region, "body": body, "network_name": None}
        super().__init__(ModelArtsNetworkProvider(), name, props, opts)


class ModelArtsResourcePool(pulumi.dynamic.Resource, module="huaweicloud", name="ModelArtsResourcePool"):
    """A ModelArts dedicated resource pool (`pulumi-python:dynamic/huaweicloud:ModelArtsResourcePool`)."""

    def __init__(
        self, name: str, region: str, body: dict, tags: Any, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        props = {"region": region, "body": body, "tags": tags, "pool_name": None}
        super().__init__(ModelArtsResourcePoolProvider(), name, props, opts)


class ModelArtsPool(GpuClusterBase):
    """A ModelArts dedicated training pool of the stack's flavor (Ascend 910B) and nodes.

    Public outputs (`OUTPUT_NAMES`): `node_ids` `[pool name]`, `node_private_ips` `[]`,
    `placement_group` and the file-system pair None. Extra output: `pool_name`.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "huaweicloud"

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's own checks (`clouds.huaweicloud.modelarts.pool_problem`); the ECS
        cluster's do not apply (no ECS node is created)."""
        ma.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the network, then the pool on it; return the outputs."""
        self.network = ModelArtsNetwork(f"{name}-modelarts-net", args.region, ma.network_body(name), child)
        self.pool = ModelArtsResourcePool(
            f"{name}-modelarts-pool",
            args.region,
            ma.pool_body(name, args),
            tags,
            pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[self.network])),
        )
        self.pool_name = pulumi.Output.from_input(ma.pool_name(name))
        return pool_outputs(self.pool_name.apply(lambda pool: [pool]))

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The pool `trainstack run` submits ModelArts training jobs to."""
        return {"pool_name": self.pool_name}
