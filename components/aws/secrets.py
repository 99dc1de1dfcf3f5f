"""The job's secrets on AWS: each `{secret: KEY}` value copied into Secrets Manager, and the
node role allowed `secretsmanager:GetSecretValue` on exactly those secrets and each
`{store: ARN}` (`clouds.job_secrets`; the nodes read them at start: `nodeagent.secrets`).

A created secret is named `trainstack/<cluster>/<ENV>` (the job file names it so) and uses the
account's AWS-managed key `aws/secretsmanager`, whose key policy lets the account's principals
use it through Secrets Manager (Secrets Manager user guide, "Secret encryption and
decryption"), so the node role needs no KMS grant. An existing `{store: ARN}` secret under a
customer-managed key needs `kms:Decrypt` for the node role in that key's policy: trainstack does
not grant it. Deleted with the stack at once (`recovery_window_in_days=0`): the value's source is
the stack's encrypted config, and a secret in its recovery window would block re-creating one of
the same name ("You can't create this secret because a secret with this name is already
scheduled for deletion", Secrets Manager `CreateSecret`).
"""

from __future__ import annotations

import json

import pulumi
import pulumi_aws as aws

from clouds.aws.secrets import own_name
from clouds.contract import ClusterConfig
from clouds.job_secrets import secret_refs
from components.job_secrets import secret_inputs


def _policy(arns: list[str]) -> str:
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "secretsmanager:GetSecretValue", "Resource": sorted(arns)}],
        }
    )


def create_job_secrets(
    name: str, args: ClusterConfig, role: aws.iam.Role, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> aws.iam.RolePolicy | None:
    """Create `{name}-secret-<env>` (+ `-value`) per `{secret: KEY}` and `{name}-node-secrets`,
    the node role's read grant; None when the job has no secret.

    Raises:
        ValueError: a `{secret: KEY}` that `trainstack:secrets` does not hold.
    """
    refs = secret_refs(args.job)
    if not refs:
        return None
    values = secret_inputs(args.job)
    arns: list[pulumi.Input[str]] = []
    for env_name, ref in sorted(refs.items()):
        if ref.store is not None:
            arns.append(ref.store)
            continue
        child = f"{name}-secret-{env_name.lower().replace('_', '-')}"
        secret = aws.secretsmanager.Secret(
            child,
            name=own_name(name, env_name),
            description=f"trainstack {name}: job.env.{env_name} (from trainstack:secrets.{ref.secret})",
            recovery_window_in_days=0,
            tags=tags,
            opts=opts,
        )
        aws.secretsmanager.SecretVersion(
            f"{child}-value", secret_id=secret.id, secret_string=values[env_name], opts=opts
        )
        arns.append(secret.arn)
    return aws.iam.RolePolicy(
        f"{name}-node-secrets", role=role.id, policy=pulumi.Output.all(*arns).apply(_policy), opts=opts
    )
