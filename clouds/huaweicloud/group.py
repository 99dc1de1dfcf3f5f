"""Which Huawei clusters the AS group holds, and its size limit (no Pulumi import).

The component (`components.huaweicloud.cluster`) and the healing line (`Healing.per_node`,
`clouds/huaweicloud/cloud.yaml`) ask the same rule, so `plan` says what the program builds.

Sources (pulumi_huaweicloud 0.0.12 `as_.Group` / `as_.Configuration`, as installed):
  * The configuration's `instance_config` has no spot input (its `charging_mode` is the
    bandwidth's billing, "bandwidth" or "traffic"), and AS adds instances "billed in
    Pay-per-use mode by default" (Huawei AS user guide, Health Check): spot clusters stay
    per-node ECS instances (`charging_mode: spot`).
  * Its disks take `kms_id`, "the encryption KMS ID of the **DATA** disk", and Huawei's AS
    API says of disk encryption "系统盘不支持加密" (the system disk does not support encryption:
    huaweicloud-sdk-go-v3 `services/as/v1/model/model_meta_data.go`): a cluster with
    `kms_key_id`, whose per-node system disks are encrypted, stays per-node instances rather
    than lose that encryption.
  * `max_instance_number`: "The value ranges from `0` to `300`".
"""

from __future__ import annotations

GROUP_MAX_NODES = 300


def per_node_reason(instance_type: str, purchase: str, kms_key_id: str | None = None) -> str | None:
    """Why a cluster's nodes are per-node ECS instances instead of the AS group, or None.

    Args:
        instance_type: the ECS flavor (every flavor fits the group).
        purchase: `spot` or `on-demand`.
        kms_key_id: the stack's KMS key, which encrypts the per-node system disks.
    """
    if purchase == "spot":
        return "pulumi_huaweicloud 0.0.12 as_.Configuration has no spot charging mode"
    if kms_key_id:
        return (
            "kms_key_id encrypts the system disks, and a Huawei AS configuration cannot "
            "(its kms_id encrypts data disks only)"
        )
    return None
