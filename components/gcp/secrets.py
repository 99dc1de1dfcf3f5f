"""The job's secrets on GCP: each `{secret: KEY}` value copied into Secret Manager, and the
node service account given `roles/secretmanager.secretAccessor` on exactly those secrets and
each `{store: projects/P/secrets/S}` (`clouds.job_secrets`; the workers read them at start with
their metadata-server token: `nodeagent.secrets`).

A created secret's id is `<cluster>-<ENV>` (the job file names it under the node's own
project), with automatic replication. The grant is a per-secret IAM member
(`secretmanager.SecretIamMember`), not a project binding, so the account reads no other secret.
The workers' OAuth scopes gain `cloud-platform`, Secret Manager's only scope
(`clouds.gcp.machine.node_scopes`). The project must have the Secret Manager API
(`secretmanager.googleapis.com`) enabled, as it must have Compute Engine's: trainstack enables
no API.
"""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.secrets import own_name
from clouds.job_secrets import secret_refs
from components.job_secrets import secret_inputs

ACCESSOR = "roles/secretmanager.secretAccessor"  # read a secret's versions, nothing else


def create_job_secrets(
    name: str,
    args: ClusterConfig,
    account: gcp.serviceaccount.Account,
    labels: dict[str, str],
    project: pulumi.Input[str],
    opts: pulumi.ResourceOptions,
) -> list[gcp.secretmanager.SecretIamMember]:
    """Create `{name}-secret-<env>` (+ `-value`) per `{secret: KEY}` and one
    `{name}-secret-<env>-reader` grant per secret; [] when the job has none.

    Raises:
        ValueError: a `{secret: KEY}` that `trainstack:secrets` does not hold.
    """
    refs = secret_refs(args.job)
    values = secret_inputs(args.job)
    member = account.email.apply(lambda email: f"serviceAccount:{email}")
    grants = []
    for env_name, ref in sorted(refs.items()):
        child = f"{name}-secret-{env_name.lower().replace('_', '-')}"
        secret_id: pulumi.Input[str]
        where: pulumi.Input[str] = project
        if ref.store is not None:
            parts = ref.store.split("/")  # projects/P/secrets/S[/versions/V]
            where, secret_id = parts[1], parts[3]
        else:
            secret = gcp.secretmanager.Secret(
                child,
                project=project,
                secret_id=own_name(name, env_name),
                replication={"auto": {}},
                labels=labels,
                opts=opts,
            )
            gcp.secretmanager.SecretVersion(f"{child}-value", secret=secret.id, secret_data=values[env_name], opts=opts)
            secret_id = secret.secret_id
        grants.append(
            gcp.secretmanager.SecretIamMember(
                f"{child}-reader", secret_id=secret_id, project=where, role=ACCESSOR, member=member, opts=opts
            )
        )
    return grants
