"""Pure request/response shaping for BCC instances, kept apart from the provider's calls.

Request fields follow `BccClient.create_instance_by_spec` in bce-python-sdk 0.9.79 (body of
`POST /v2/instanceBySpec`); response fields follow `InstanceModel` (official BCC API doc
"Query Details of the Specified Instance", and bce-sdk-go `services/bcc/api/model.go`).

Spot ("preemptible") instances are postpaid instances that carry a bid (official BCC doc
"Spot the Instance"): `bidModel` `market` follows the market price and is released only when
capacity runs short; `custom` adds `bidPrice`, in CNY per minute, below which creation is
refused (generated BCC SDK, `CreateInstanceBySpecRequest.bidModel` / `bidPrice`;
china-clouds.md §2.5).

Encryption: the root disk is **not encrypted**. `create_instance_by_spec` has no root-disk
encryption parameter (only `root_disk_size_in_gb` / `root_disk_storage_type`); Baidu
encrypts a system disk only through an encrypted custom image, and CDS data disks
(`create_cds_list`, `CreateCdsModel.encryptKey`) only with a key the user created in KMS
(Baidu CDS doc "Encryption Overview"). No cloud-managed default key exists for either, so
nothing is turned on here; the README states the gap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clouds.baiducloud.layout import tag_list

BID_MODELS = ("market", "custom")
RUNNING = "Running"
FAILED = frozenset({"Error"})  # InstanceStatus values, bce-sdk-go services/bcc/api/model.go
GONE = frozenset({"Deleted"})
GPU_IMAGE_TYPE = "GpuBccSystem"  # "GPU public images" ImageType, bce-sdk-go model.go


def create_arguments(props: Mapping[str, Any], image_id: str) -> dict[str, Any]:
    """Keyword arguments of `BccClient.create_instance_by_spec` for one instance.

    Args:
        props: the `BccInstance` inputs.
        image_id: the boot image id (given or picked by `pick_image`).

    Returns:
        SDK keyword arguments; optional fields appear only when set.
    """
    from baidubce.services.bcc import bcc_model

    tags = props.get("tags") or {}
    deploy_set = props.get("deploy_set_id")
    arguments: dict[str, Any] = {
        "spec": props["spec"],
        "image_id": image_id,
        "billing": bcc_model.Billing("Postpaid"),
        "zone_name": props["zone"],
        "subnet_id": props["subnet_id"],
        "security_group_ids": list(props["security_group_ids"]),
        "name": props["name"],
        "purchase_count": 1,
    }
    optional = {
        "hostname": props.get("hostname"),
        "key_pair_id": props.get("keypair_id"),
        "ehc_cluster_id": props.get("ehc_cluster_id"),
        "deploy_id_list": [deploy_set] if deploy_set else None,
        "tags": [bcc_model.TagModel(t["tagKey"], t["tagValue"]) for t in tag_list(tags)] or None,
        "root_disk_size_in_gb": int(props.get("root_disk_size_gb") or 0),
    }
    arguments.update({key: value for key, value in optional.items() if value})
    return arguments | bid_arguments(props)


def bid_arguments(props: Mapping[str, Any]) -> dict[str, str]:
    """`bid_model` (and `bid_price` for `custom`) of a spot instance; `{}` on demand."""
    model = props.get("bid_model")
    if not model:
        return {}
    if model == "custom":
        return {"bid_model": model, "bid_price": str(props["bid_price"])}
    return {"bid_model": model}


def bid_problems(props: Mapping[str, Any]) -> list[tuple[str, str]]:
    """`(property, reason)` for inconsistent bid inputs; empty when they are valid."""
    model, price = props.get("bid_model"), props.get("bid_price")
    if model not in (None, *BID_MODELS):
        models = ", ".join(BID_MODELS)
        return [("bid_model", f"bid_model must be one of {models} (or unset for on-demand)")]
    if model == "custom" and price in (None, ""):
        return [("bid_price", "bid_model custom needs bid_price (CNY per minute)")]
    if model != "custom" and price not in (None, ""):
        return [("bid_price", "bid_price applies only with bid_model custom")]
    return []


def instance_outputs(instance_id: str, detail: Mapping[str, Any]) -> dict[str, Any]:
    """Outputs read from an `InstanceModel`: id, private IP, status and payment timing."""
    return {
        "instance_id": instance_id,
        "internal_ip": detail.get("internalIp") or None,
        "status": detail.get("status"),
        "payment_timing": detail.get("paymentTiming"),
    }


def live_tags(detail: Mapping[str, Any]) -> dict[str, str]:
    """The instance's tags from an `InstanceModel` as a plain mapping."""
    return {tag["tagKey"]: tag.get("tagValue", "") for tag in detail.get("tags") or []}


def tag_changes(old: Mapping[str, str], new: Mapping[str, str]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Tags to unbind and to bind so that `old` becomes `new` (a changed value is both)."""
    unbind = {key: value for key, value in old.items() if new.get(key) != value}
    bind = {key: value for key, value in new.items() if old.get(key) != value}
    return tag_list(unbind), tag_list(bind)


def pick_image(images: Sequence[Mapping[str, Any]], os_name: str) -> str:
    """The newest available public GPU image of one OS.

    Args:
        images: `ImageModel`s from `GET /v2/image?imageType=GpuBccSystem`.
        os_name: e.g. `Ubuntu` (matched case-insensitively against `osName`).

    Returns:
        The image id with the highest `osVersion`, then the latest `createTime`.

    Raises:
        LookupError: no available image of that OS.
    """
    candidates = [
        image
        for image in images
        if image.get("status") == "Available" and str(image.get("osName", "")).lower() == os_name.lower()
    ]
    if not candidates:
        raise LookupError(
            f"no available {GPU_IMAGE_TYPE} image with osName {os_name} in this region; "
            "set image_id on the instance or choose another image_os"
        )
    best = max(
        candidates,
        key=lambda i: (_version(i.get("osVersion")), i.get("createTime") or "", i["id"]),
    )
    return str(best["id"])


def _version(text: Any) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", str(text or "")))
