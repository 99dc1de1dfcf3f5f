"""Azure Key Vault as the store of a job's secrets (`clouds.job_secrets.SecretStore`).

An existing secret is given by its resource id (what a role assignment is scoped to), from
which the node's URL follows (`https://VAULT.vault.azure.net/secrets/NAME`, Azure's public
cloud). `{secret: KEY}` copies go in a vault the cluster creates (`vault_name`), named
`<cluster>-<ENV>` with `_` as `-` (Key Vault names: letters, digits, `-`).
"""

from __future__ import annotations

import hashlib
import re

from clouds.job_secrets import SecretStore

SECRET_ID = re.compile(
    r"/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[-\w.()]{1,90}/providers/Microsoft\.KeyVault/"
    r"vaults/[A-Za-z0-9-]{3,24}/secrets/[A-Za-z0-9-]{1,127}",
    re.IGNORECASE,
)


def vault_name(cluster: str) -> str:
    """The vault a cluster creates for its `{secret: KEY}` values: `ks` + up to 13
    letters/digits of the name + `-` + 8 hex of its hash (24 characters at most, Key Vault's
    limit; the name is global, like the AML workspace's vault: `clouds.azure.aml`)."""
    alnum = re.sub(r"[^a-z0-9]", "", cluster.lower())
    return f"ks{alnum[:13]}-{hashlib.sha256(cluster.encode()).hexdigest()[:8]}"


def own_name(cluster: str, env_name: str) -> str:
    """`<cluster>-<ENV>` with `_` as `-`."""
    return f"{cluster}-{env_name}".replace("_", "-")


def locator(cluster: str, region: str, env_name: str, store: str | None) -> dict[str, str]:
    """`{"store": "azure", "id": "https://VAULT.vault.azure.net/secrets/NAME"}`."""
    if store is not None:
        parts = store.split("/")
        vault, secret = parts[-3], parts[-1]
    else:
        vault, secret = vault_name(cluster), own_name(cluster, env_name)
    return {"store": "azure", "id": f"https://{vault}.vault.azure.net/secrets/{secret}"}


STORE = SecretStore(
    service="Azure Key Vault",
    store_id=SECRET_ID,
    example="/subscriptions/<id>/resourceGroups/team/providers/Microsoft.KeyVault/vaults/team-kv/secrets/wandb-key",
    own_name=own_name,
    locator=locator,
)
