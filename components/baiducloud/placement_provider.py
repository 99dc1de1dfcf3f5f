"""Deploy set, EHC cluster and SSH key pair as Pulumi dynamic resources over `BccClient`.

  * `DeploySet`: `create_deploy_set` / `get_deploy_set` / `delete_deploy_set`. The SDK
    exposes only the spread strategies `HOST_HA` | `RACK_HA` | `TOR_HA`; the "集群" (one
    network POD) strategy is not exposed (china-clouds.md §3, Baidu).
  * `EhcCluster`: `create_ehc_cluster` / `get_ehc_cluster_list` / `delete_ehc_cluster`; RDMA
    instances that join one (`ehc_cluster_id`, §1.5, §3) share its fabric. Without one,
    Baidu uses a default EHC cluster (generated BCC SDK, `CreateInstanceBySpecRequest`).
  * `Keypair`: `import_keypair` / `get_keypair` / `delete_keypair`. Import accepts RSA, DSA
    and ECDSA public keys only (official BCC API "Import a key pair", 2025-10-20).
None of the three takes tags in the SDK.
"""

from __future__ import annotations

from typing import Any

import pulumi
from pulumi.dynamic import CheckFailure, CreateResult

from clouds.baiducloud.layout import KEY_TYPES
from components.baiducloud import api
from components.baiducloud.dynamic_base import BaiduProvider, BaiduResource, ignore_not_found, known_text

DEPLOY_SET_STRATEGIES = ("HOST_HA", "RACK_HA", "TOR_HA")


class DeploySetProvider(BaiduProvider):
    """Dynamic provider of `DeploySet`."""

    INPUTS = ("region", "name", "strategy", "concurrency", "description")
    REQUIRED = ("region", "name", "strategy")
    OUTPUTS = ("deploy_set_id",)

    def extra_failures(self, news: dict[str, Any]) -> list[CheckFailure]:
        """The strategy must be one the SDK documents."""
        strategy = news.get("strategy")
        if known_text(strategy) and strategy not in DEPLOY_SET_STRATEGIES:
            choices = ", ".join(DEPLOY_SET_STRATEGIES)
            return [CheckFailure("strategy", f"strategy must be one of {choices}")]
        return []

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Create the deploy set."""
        client = api.bcc(props["region"])
        concurrency = int(props["concurrency"]) if props.get("concurrency") else None
        body = api.call(
            "CreateDeploySet",
            client.create_deploy_set,
            name=props["name"],
            strategy=props["strategy"],
            desc=props.get("description"),
            concurrency=concurrency,
        )
        deploy_set_id = body["deploySetIds"][0]
        return CreateResult(deploy_set_id, self.inputs_of(props) | {"deploy_set_id": deploy_set_id})

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """The deploy set's name and strategy; gone when Baidu answers 404."""
        client = api.bcc(props["region"])

        def fetch() -> dict[str, Any]:
            body = api.call("GetDeploySet", client.get_deploy_set, id_)
            live = {key: body.get(key, props.get(key)) for key in ("name", "strategy")}
            return self.inputs_of(props) | live | {"deploy_set_id": id_}

        return self.read_or_gone(id_, fetch)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Delete the deploy set (after its instances)."""
        client = api.bcc(props["region"])
        ignore_not_found(lambda: api.call("DeleteDeploySet", client.delete_deploy_set, id_))


class EhcClusterProvider(BaiduProvider):
    """Dynamic provider of `EhcCluster`."""

    INPUTS = ("region", "name", "zone", "description")
    REQUIRED = ("region", "name", "zone")
    OUTPUTS = ("ehc_cluster_id",)

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Create the EHC cluster in one zone."""
        client = api.bcc(props["region"])
        body = api.call(
            "CreateEhcCluster",
            client.create_ehc_cluster,
            props["name"],
            props["zone"],
            description=props.get("description"),
        )
        cluster_id = body["ehcClusterId"]
        return CreateResult(cluster_id, self.inputs_of(props) | {"ehc_cluster_id": cluster_id})

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """The cluster's name and zone; gone when the list no longer holds it."""
        client = api.bcc(props["region"])

        def fetch() -> dict[str, Any] | None:
            body = api.call("ListEhcClusters", client.get_ehc_cluster_list, ehc_cluster_id_list=[id_])
            found = [c for c in body.get("ehcClusters") or [] if c.get("ehcClusterId") == id_]
            if not found:
                return None
            live = {"name": found[0].get("name"), "zone": found[0].get("zoneName")}
            return self.inputs_of(props) | live | {"ehc_cluster_id": id_}

        return self.read_or_gone(id_, fetch)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Delete the EHC cluster (after its instances)."""
        client = api.bcc(props["region"])
        ignore_not_found(lambda: api.call("DeleteEhcCluster", client.delete_ehc_cluster, [id_]))


class KeypairProvider(BaiduProvider):
    """Dynamic provider of `Keypair` (an imported public key)."""

    INPUTS = ("region", "name", "public_key", "description")
    REQUIRED = ("region", "name", "public_key")
    OUTPUTS = ("keypair_id",)

    def extra_failures(self, news: dict[str, Any]) -> list[CheckFailure]:
        """Baidu imports RSA, DSA and ECDSA keys only."""
        key = news.get("public_key")
        if known_text(key) and not key.strip().startswith(KEY_TYPES):
            reason = "Baidu imports only ssh-rsa, ssh-dss or ecdsa public keys"
            return [CheckFailure("public_key", reason)]
        return []

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Import the public key."""
        client = api.bcc(props["region"])
        body = api.call(
            "ImportKeypair",
            client.import_keypair,
            keypair_name=props["name"],
            keypair_desc=props.get("description"),
            public_key=props["public_key"],
        )
        keypair_id = body["keypair"]["keypairId"]
        return CreateResult(keypair_id, self.inputs_of(props) | {"keypair_id": keypair_id})

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """The key pair's name; gone when Baidu answers 404."""
        client = api.bcc(props["region"])

        def fetch() -> dict[str, Any]:
            keypair = api.call("GetKeypair", client.get_keypair, id_).get("keypair") or {}
            live = {"name": keypair.get("name", props.get("name")), "keypair_id": id_}
            return self.inputs_of(props) | live

        return self.read_or_gone(id_, fetch)

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Delete the key pair."""
        client = api.bcc(props["region"])
        ignore_not_found(lambda: api.call("DeleteKeypair", client.delete_keypair, id_))


class DeploySet(BaiduResource, module="baiducloud", name="DeploySet"):
    """A deploy set (`pulumi-python:dynamic/baiducloud:DeploySet`) with one of
    `DEPLOY_SET_STRATEGIES`; output `deploy_set_id`."""

    PROVIDER = DeploySetProvider
    deploy_set_id: pulumi.Output[str]


class EhcCluster(BaiduResource, module="baiducloud", name="EhcCluster"):
    """An EHC cluster (`pulumi-python:dynamic/baiducloud:EhcCluster`) in one `zone`; output
    `ehc_cluster_id`."""

    PROVIDER = EhcClusterProvider
    ehc_cluster_id: pulumi.Output[str]


class Keypair(BaiduResource, module="baiducloud", name="Keypair"):
    """An imported SSH key pair (`pulumi-python:dynamic/baiducloud:Keypair`): an OpenSSH
    `public_key` (RSA, DSA or ECDSA); output `keypair_id`."""

    PROVIDER = KeypairProvider
    keypair_id: pulumi.Output[str]
