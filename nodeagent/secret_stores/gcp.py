"""GCP Secret Manager from a node: `GET https://secretmanager.googleapis.com/v1/{name}:access`
with the VM service account's token from the metadata server (the answer's `payload.data` is
base64); a name under `projects/-/` is the node's own project (metadata `project/project-id`)."""

from __future__ import annotations

import base64
from collections.abc import Mapping

from nodeagent.metadata import http
from nodeagent.secrets import Http, SecretError, answer_json

METADATA = "http://metadata.google.internal/computeMetadata/v1"
API = "https://secretmanager.googleapis.com/v1"


def read(where: Mapping[str, str], call: Http = http) -> str:
    """One secret version's payload, decoded as UTF-8."""
    flavor = {"Metadata-Flavor": "Google"}
    name = where["id"]
    if name.startswith("projects/-/"):
        status, _, project = call(f"{METADATA}/project/project-id", headers=flavor)
        if status != 200:
            raise SecretError(f"the metadata server answered HTTP {status} for the project id")
        name = f"projects/{project.strip()}/{name.removeprefix('projects/-/')}"
    status, _, text = call(f"{METADATA}/instance/service-accounts/default/token", headers=flavor)
    token = answer_json(status, text, "the metadata server")["access_token"]
    status, _, text = call(f"{API}/{name}:access", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    payload = answer_json(status, text, "Secret Manager").get("payload", {})
    return base64.b64decode(payload.get("data", "")).decode()
