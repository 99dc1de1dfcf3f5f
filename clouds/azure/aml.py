"""Azure Machine Learning pool rules, pure: the names the pool component gives its resources
(which `trainstack run` computes again to submit a job) and the AmlCompute cluster's settings.

Name limits (Azure Machine Learning docs, "Create compute clusters" and the ARM naming rules for
Microsoft.MachineLearningServices, Microsoft.Storage, Microsoft.KeyVault): a compute name is
2-16 letters, digits and hyphens starting with a letter; a workspace name 3-33 letters, digits,
hyphens and underscores; a storage account 3-24 lowercase letters and digits, globally unique; a
key vault 3-24 letters, digits and hyphens starting with a letter, globally unique. The globally
unique ones carry a hash of the subscription-independent cluster name, so one cluster name gives
the same names on every run.
"""

from __future__ import annotations

import hashlib
import re

from clouds.contract import ClusterConfig

# How long an idle node stays before the cluster scales back to its minimum (ISO 8601
# duration). trainstack's choice (assumed): 5 minutes, so a resubmitted job finds its nodes.
IDLE_BEFORE_SCALE_DOWN = "PT300S"
# The Azure ML curated PyTorch environment the command job runs in (Azure ML curated
# environments list, "acpt-pytorch-2.2-cuda12.1"); a job's `env` adds to it.
CURATED_ENVIRONMENT = "azureml://registries/azureml/environments/acpt-pytorch-2.2-cuda12.1/labels/latest"
# ARM API version of the Microsoft.MachineLearningServices jobs the submitter sends (REST
# reference "Jobs - Create Or Update", 2024-04-01).
API_VERSION = "2024-04-01"


def _hash(name: str, size: int = 8) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:size]


def _alnum(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def resource_group_name(cluster: str) -> str:
    """The pool's resource group: `<cluster>-rg`."""
    return f"{cluster}-rg"


def workspace_name(cluster: str) -> str:
    """The workspace: `<cluster>-ws`, cut to 33 characters."""
    return f"{cluster[:30]}-ws"


def compute_name(cluster: str) -> str:
    """The AmlCompute cluster: at most 16 characters, starting with a letter (`<cluster>-gpu`,
    the cluster part cut to 12)."""
    base = re.sub(r"[^a-z0-9-]", "-", cluster.lower())
    if not base[:1].isalpha():
        base = f"c{base}"
    return f"{base[:12].rstrip('-')}-gpu"


def storage_account_name(cluster: str) -> str:
    """The workspace's storage account: `ts` + up to 14 letters/digits of the name + 8 hash."""
    return f"ts{_alnum(cluster)[:14]}{_hash(cluster)}"


def key_vault_name(cluster: str) -> str:
    """The workspace's key vault: `kv` + up to 13 letters/digits + `-` + 8 hash (24 at most)."""
    return f"kv{_alnum(cluster)[:13]}-{_hash(cluster)}"


def vm_priority(purchase: str) -> str:
    """`LowPriority` for a spot pick, `Dedicated` otherwise (AmlCompute `vmPriority`)."""
    return "LowPriority" if purchase == "spot" else "Dedicated"


def scale_settings(config: ClusterConfig) -> dict[str, object]:
    """AmlCompute scale settings: scale to zero (min 0), at most the stack's `nodes`."""
    return {
        "min_node_count": 0,
        "max_node_count": config.nodes,
        "node_idle_time_before_scale_down": IDLE_BEFORE_SCALE_DOWN,
    }


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The Azure ML pool's checks: the Azure cluster's (`clouds.azure.validate`), then the
    pool's own (`pool_problem`).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    from clouds.azure.validate import validate_args

    validate_args(config, name)
    if problem := pool_problem(config):
        raise ValueError(problem)


def pool_problem(config: ClusterConfig) -> str | None:
    """Why the Azure ML pool cannot be built from `config`, or None."""
    if not config.instance_type.startswith("Standard_"):
        return f"instance_type: {config.instance_type} is not an Azure VM size (Standard_...); rerun resolve"
    if config.file_system is not None:
        return (
            "file_system: Azure ML jobs keep code, checkpoints and output in the workspace's storage and do not "
            "mount a Lustre file system; remove file_system"
        )
    if config.ssh_cidrs:
        return "ssh_cidrs: the Azure ML pool has SSH off and no public IP; remove ssh_cidrs"
    return None
