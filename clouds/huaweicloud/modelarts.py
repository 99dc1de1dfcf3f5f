"""ModelArts dedicated resource pool rules, pure: the ModelArts v2 request bodies trainstack's
dynamic provider sends (`components.huaweicloud.modelarts`) and the names it gives.

Bodies follow the ModelArts API reference: "Creating a Network Resource" (POST
/v1/{project_id}/networks: `apiVersion` v1, `kind` Network, `metadata.labels` with
`os.modelarts/name`, `spec.cidr`) and "Creating a Resource Pool" (POST /v2/{project_id}/pools:
`apiVersion` v2, `kind` Pool, `metadata.labels` `os.modelarts/name` and
`os.modelarts/workspace.id`, `annotations` `os.modelarts/billing.mode` 0 = pay-per-use,
`spec.type` Dedicate, `spec.scope` [Train], `spec.network.name`, `spec.resources[].flavor` and
`count`); the Terraform resource `huaweicloud_modelarts_resource_pool` takes the same fields
(china-clouds.md 5.3). The pool and network names are 4-32 lowercase letters, digits and
hyphens starting with a letter (the same reference).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from clouds.tag_rules import TagRules, tag_problem

# The pool's cost tags are TMS tags (BatchCreatePoolTags). Their rules, as the official SDK
# states them for ModelArts TMS tags (huaweicloudsdkmodelarts 3.1.219 `TmsTag`): key at most
# 128 characters of letters of any language, digits, spaces and `_ . : = + - @`, no leading or
# trailing space, not starting with `_sys_`; value at most 255 characters, `/` allowed too.
# No count limit is stated there, so none is checked.
TMS_TAG_RULES = TagRules(
    "Huawei ModelArts",
    10**6,
    128,
    255,
    re.compile(r"(?! )[\w .:=+\-@]*(?<! )"),
    re.compile(r"[\w .:/=+\-@]*"),
    "letters, digits, spaces (not first or last in a key) and _ . : = + - @ (and / in a value)",
    ("_sys_",),
)

# The ModelArts network's CIDR: trainstack's choice (the reference's example range).
NETWORK_CIDR = "172.16.0.0/12"
DEFAULT_WORKSPACE = "0"  # the default workspace id


def _name(cluster: str, suffix: str) -> str:
    base = re.sub(r"[^a-z0-9-]", "-", cluster.lower()).strip("-")
    if not base[:1].isalpha():
        base = f"p{base}"
    tail = hashlib.sha256(cluster.encode()).hexdigest()[:6]
    return f"{base[: 32 - len(suffix) - 8]}-{tail}-{suffix}"


def pool_name(cluster: str) -> str:
    """The pool: at most 32 characters, a hash of the cluster name keeps it unique."""
    return _name(cluster, "pool")


def network_name(cluster: str) -> str:
    """The pool's ModelArts network."""
    return _name(cluster, "net")


def network_body(cluster: str) -> dict:
    """The `Creating a Network Resource` body."""
    return {
        "apiVersion": "v1",
        "kind": "Network",
        "metadata": {"labels": {"os.modelarts/name": network_name(cluster)}},
        "spec": {"cidr": NETWORK_CIDR},
    }


def pool_body(cluster: str, config: ClusterConfig) -> dict:
    """The `Creating a Resource Pool` body: a dedicated training pool of `nodes` nodes of the
    stack's flavor, pay-per-use, on the pool's network."""
    return {
        "apiVersion": "v2",
        "kind": "Pool",
        "metadata": {
            "labels": {"os.modelarts/name": pool_name(cluster), "os.modelarts/workspace.id": DEFAULT_WORKSPACE},
            "annotations": {"os.modelarts/billing.mode": "0", "os.modelarts/description": f"trainstack {cluster}"},
        },
        "spec": {
            "type": "Dedicate",
            "scope": ["Train"],
            "network": {"name": network_name(cluster)},
            "resources": [{"flavor": config.instance_type, "count": config.nodes}],
        },
    }


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The ModelArts pool's checks (`pool_problem`; the ECS cluster's do not apply).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if problem := pool_problem(config):
        raise ValueError(problem)


def pool_problem(config: ClusterConfig) -> str | None:
    """Why a ModelArts pool cannot be built from `config`, or None."""
    if not config.instance_type.startswith("modelarts."):
        return f"instance_type: {config.instance_type} is not a ModelArts pool flavor (modelarts....); rerun resolve"
    if config.purchase == "spot":
        return (
            "purchase: ModelArts dedicated pools are pay-per-use or yearly/monthly, not spot; set purchase: on-demand"
        )
    if config.file_system is not None:
        return "file_system: the ModelArts pool keeps job data in OBS; remove file_system"
    if config.ssh_cidrs:
        return "ssh_cidrs: ModelArts pool nodes take no SSH from trainstack; remove ssh_cidrs"
    return tag_problem(TMS_TAG_RULES, config.tags)


# The official SDK's own variables (`huaweicloudsdkcore.auth.provider.EnvCredentialProvider`),
# the set `catalog refresh` reads too; the names trainstack read before (`HUAWEICLOUD_ACCESS_KEY`,
# ...) still work, each after its SDK name, so an environment set up for them keeps working.
CREDENTIAL_VARIABLES = ("HUAWEICLOUD_SDK_AK", "HUAWEICLOUD_SDK_SK", "HUAWEICLOUD_SDK_PROJECT_ID")
OLD_CREDENTIAL_VARIABLES = ("HUAWEICLOUD_ACCESS_KEY", "HUAWEICLOUD_SECRET_KEY", "HUAWEICLOUD_PROJECT_ID")


def credential_values(env: Mapping[str, str]) -> tuple[list[str], str]:
    """(access key, secret key, project id) from `env`, each from its SDK variable else its old
    name, and the one-line problem when one is missing (`""` when all are there)."""
    pairs = zip(CREDENTIAL_VARIABLES, OLD_CREDENTIAL_VARIABLES, strict=True)
    values = [env.get(new) or env.get(old) or "" for new, old in pairs]
    unset = [name for name, value in zip(CREDENTIAL_VARIABLES, values, strict=True) if not value]
    if not unset:
        return values, ""
    partly = f" ({', '.join(unset)} not set)" if len(unset) < len(values) else ""
    return values, (
        f"no Huawei Cloud credentials: set {' and '.join(CREDENTIAL_VARIABLES)}{partly} "
        "(the Huawei Cloud SDK's variables; docs/platforms.md, Credentials)"
    )


def client(region: str, env: Mapping[str, str] | None = None) -> Any:
    """A ModelArts client for `region` (SDK imported here, only when one is needed), signing with
    the key pair in project `credential_values` finds.

    Raises:
        RuntimeError: a variable is not set (one line naming it and the set to give).
    """
    values, problem = credential_values(os.environ if env is None else env)
    if problem:
        raise RuntimeError(problem)
    from huaweicloudsdkcore.auth.credentials import BasicCredentials
    from huaweicloudsdkmodelarts.v1 import ModelArtsClient

    credentials = BasicCredentials(*values)
    endpoint = f"https://modelarts.{region}.myhuaweicloud.com"
    return ModelArtsClient.new_builder().with_credentials(credentials).with_endpoint(endpoint).build()
