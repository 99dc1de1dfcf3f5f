"""AWS Secrets Manager as the store of a job's secrets (`clouds.job_secrets.SecretStore`).

An existing secret is given by its full ARN as Secrets Manager shows it (with the 6-character
suffix it appends), so the node role's policy names exactly that secret. A `{secret: KEY}` copy
is named `trainstack/<cluster>/<ENV>`; a node reads either with `get-secret-value` in the
secret's region (`nodeagent.secret_stores.aws`).
"""

from __future__ import annotations

import re

from clouds.job_secrets import SecretStore

ARN = re.compile(r"arn:aws(?:-cn|-us-gov)?:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}")


def own_name(cluster: str, env_name: str) -> str:
    """`trainstack/<cluster>/<ENV>`."""
    return f"trainstack/{cluster}/{env_name}"


def locator(cluster: str, region: str, env_name: str, store: str | None) -> dict[str, str]:
    """`{"store": "aws", "id": NAME_OR_ARN, "region": R}` (an ARN's own region)."""
    if store is not None:
        return {"store": "aws", "id": store, "region": store.split(":")[3]}
    return {"store": "aws", "id": own_name(cluster, env_name), "region": region}


STORE = SecretStore(
    service="AWS Secrets Manager",
    store_id=ARN,
    example="arn:aws:secretsmanager:us-east-1:123456789012:secret:team/wandb-AbCdEf",
    own_name=own_name,
    locator=locator,
)
