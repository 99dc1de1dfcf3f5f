"""Azure Key Vault from a node: a Key Vault token from the instance metadata service's
managed-identity endpoint (`resource=https://vault.azure.net`; the scale set has one
user-assigned identity, so no client id is needed), then `GET {secret URL}?api-version=7.4`
(the answer's `value`)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

from nodeagent.metadata import http
from nodeagent.secrets import Http, answer_json

TOKEN = "http://169.254.169.254/metadata/identity/oauth2/token"
API_VERSION = "7.4"  # the Key Vault data-plane REST API version


def read(where: Mapping[str, str], call: Http = http) -> str:
    """One secret's current value."""
    query = urllib.parse.urlencode({"api-version": "2018-02-01", "resource": "https://vault.azure.net"})
    status, _, text = call(f"{TOKEN}?{query}", headers={"Metadata": "true"})
    token = answer_json(status, text, "the managed-identity endpoint")["access_token"]
    url = f"{where['id']}?api-version={API_VERSION}"
    status, _, text = call(url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return str(answer_json(status, text, "Key Vault")["value"])
