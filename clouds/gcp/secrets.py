"""GCP Secret Manager as the store of a job's secrets (`clouds.job_secrets.SecretStore`).

An existing secret is `projects/P/secrets/S` (its latest version) or `.../versions/V`. A
`{secret: KEY}` copy has the id `<cluster>-<ENV>` (Secret Manager ids: letters, digits, `_`,
`-`) in the cluster's project, which the node names `projects/-/...` and resolves from its
metadata server (`nodeagent.secret_stores.gcp`).
"""

from __future__ import annotations

import re

from clouds.job_secrets import SecretStore

SECRET = re.compile(
    r"projects/(?:[a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,20})/secrets/[A-Za-z0-9_-]{1,255}(?:/versions/(?:latest|[0-9]+))?"
)


def own_name(cluster: str, env_name: str) -> str:
    """`<cluster>-<ENV>`."""
    return f"{cluster}-{env_name}"


def locator(cluster: str, region: str, env_name: str, store: str | None) -> dict[str, str]:
    """`{"store": "gcp", "id": "projects/P/secrets/S/versions/V"}` (P `-`: the node's project)."""
    wanted = store or f"projects/-/secrets/{own_name(cluster, env_name)}"
    return {"store": "gcp", "id": wanted if "/versions/" in wanted else f"{wanted}/versions/latest"}


STORE = SecretStore(
    service="GCP Secret Manager",
    store_id=SECRET,
    example="projects/my-project/secrets/wandb-key",
    own_name=own_name,
    locator=locator,
)
