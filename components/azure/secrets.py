"""The job's secrets on Azure: each `{secret: KEY}` value copied into a Key Vault the cluster
creates, and the nodes' user-assigned identity given "Key Vault Secrets User" on exactly those
secrets and each `{store: <Key Vault secret resource id>}` (`clouds.job_secrets`; the workers
read them at start with the identity's token: `nodeagent.secrets`).

The vault (`clouds.azure.secrets.vault_name`, global) uses Azure RBAC for data access
(`enable_rbac_authorization`), so a role assignment scoped to one secret lets the identity read
that secret and nothing else in it; the deployer writes the secrets through ARM
(`Microsoft.KeyVault/vaults/secrets`). Soft delete cannot be turned off: after `pulumi destroy`
the vault stays soft-deleted for `SOFT_DELETE_DAYS` and holds its name, so re-creating the
stack within that time needs `az keyvault purge --name NAME` first (purge protection is off so
that it can be purged).
"""

from __future__ import annotations

import pulumi
import pulumi_azure_native as azure_native

from clouds.azure.data import role_definition_id
from clouds.azure.secrets import own_name, vault_name
from clouds.contract import ClusterConfig
from clouds.job_secrets import secret_refs
from components.azure.place import Place
from components.job_secrets import secret_inputs

# Azure built-in role "Key Vault Secrets User": read secret contents (Azure built-in roles, Security).
SECRETS_USER = "4633458b-17de-408a-b874-0445c86b69e6"
SOFT_DELETE_DAYS = 7  # the least Key Vault allows (7-90 days)


def create_job_secrets(
    place: Place, args: ClusterConfig, principal_id: pulumi.Input[str]
) -> list[azure_native.authorization.RoleAssignment]:
    """Create the vault `{name}-secrets-vault` and `{name}-secret-<env>` per `{secret: KEY}`, and
    one `{name}-secret-<env>-reader` assignment per secret; [] when the job has none.

    Raises:
        ValueError: a `{secret: KEY}` that `trainstack:secrets` does not hold.
    """
    refs = secret_refs(args.job)
    if not refs:
        return []
    values = secret_inputs(args.job)
    client = azure_native.authorization.get_client_config_output(
        opts=pulumi.InvokeOutputOptions(parent=place.opts.parent)
    )
    vault = None
    if values:
        vault = azure_native.keyvault.Vault(
            f"{place.name}-secrets-vault",
            vault_name=vault_name(place.name),
            properties={
                "tenant_id": client.tenant_id,
                "sku": {"family": "A", "name": "standard"},
                "enable_rbac_authorization": True,
                "soft_delete_retention_in_days": SOFT_DELETE_DAYS,
            },
            **place.located(),
            opts=place.opts,
        )
    grants = []
    for env_name, ref in sorted(refs.items()):
        child = f"{place.name}-secret-{env_name.lower().replace('_', '-')}"
        scope: pulumi.Input[str]
        if ref.store is not None:
            scope = ref.store
        else:
            assert vault is not None
            secret = azure_native.keyvault.Secret(
                child,
                secret_name=own_name(place.name, env_name),
                vault_name=vault_name(place.name),  # the name the job file reads it under
                resource_group_name=place.resource_group_name,
                properties={"value": values[env_name]},
                tags=place.tags,
                opts=place.options(depends_on=[vault]),
            )
            scope = secret.id
        grants.append(
            azure_native.authorization.RoleAssignment(
                f"{child}-reader",
                principal_id=principal_id,
                principal_type="ServicePrincipal",
                role_definition_id=client.subscription_id.apply(lambda sub: role_definition_id(sub, SECRETS_USER)),
                scope=scope,
                opts=place.opts,
            )
        )
    return grants
