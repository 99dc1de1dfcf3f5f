"""`BccInstance`: one Baidu BCC (GPU) instance as a Pulumi dynamic resource over bce-python-sdk.

No Pulumi package exists for Baidu AI Cloud (china-clouds.md §0.5, §5.5), so this module
implements the resource's whole life cycle against `BccClient`:

  * create: `create_instance_by_spec` (`POST /v2/instanceBySpec`), on demand or spot
    (`bid_model` `market` | `custom` + `bid_price`), then polls `get_instance` until the
    instance is `Running` (creation is asynchronous). If it never gets there, the instance
    is released again, so a failed create leaves nothing behind.
  * read: `get_instance`; a 404 means the instance is gone.
  * update in place: `name` (`modify_instance_attributes`) and `tags` (bind / unbind).
    Every other input replaces the instance (`diff`).
  * delete: `release_instance`, then waits until the instance is gone, so the subnet and
    security group can be deleted after it.

Credentials come from the environment (`components.baiducloud.api`); a create without them
fails with one line before any request is sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import pulumi
from pulumi.dynamic import CheckFailure, CreateResult, UpdateResult

from clouds.baiducloud.layout import IMAGE_OS
from components.baiducloud import api
from components.baiducloud.bcc_requests import (
    FAILED,
    GONE,
    GPU_IMAGE_TYPE,
    RUNNING,
    bid_problems,
    create_arguments,
    instance_outputs,
    live_tags,
    pick_image,
    tag_changes,
)
from components.baiducloud.dynamic_base import BaiduProvider, BaiduResource, ignore_not_found

OUTPUTS = ("instance_id", "internal_ip", "status", "payment_timing", "boot_image_id")


class BccInstanceProvider(BaiduProvider):
    """Dynamic provider of `BccInstance` (see the module docstring)."""

    INPUTS = (
        "region",
        "zone",
        "spec",
        "name",
        "hostname",
        "image_id",
        "image_os",
        "subnet_id",
        "security_group_ids",
        "deploy_set_id",
        "ehc_cluster_id",
        "keypair_id",
        "bid_model",
        "bid_price",
        "root_disk_size_gb",
        "tags",
    )
    REQUIRED = ("region", "zone", "spec", "name", "subnet_id", "security_group_ids")
    UPDATABLE = ("name", "tags")
    OUTPUTS = OUTPUTS
    DELETE_BEFORE_REPLACE = True

    def extra_failures(self, news: dict[str, Any]) -> list[CheckFailure]:
        """Inconsistent bid inputs (`bid_model` / `bid_price`)."""
        return [CheckFailure(prop, reason) for prop, reason in bid_problems(news)]

    def create(self, props: dict[str, Any]) -> CreateResult:
        """Create the instance and wait until it runs; release it again if it does not."""
        client = api.bcc(props["region"])
        image_id = props.get("image_id") or self._pick_image(client, props.get("image_os") or IMAGE_OS)
        arguments = create_arguments(props, image_id)
        body = api.call("CreateInstanceBySpec", client.create_instance_by_spec, **arguments)
        instance_id = body["instanceIds"][0]
        try:
            detail = self._wait_running(client, instance_id)
        except Exception:
            ignore_not_found(lambda: api.call("ReleaseInstance", client.release_instance, instance_id))
            raise
        outputs = instance_outputs(instance_id, detail) | {"boot_image_id": image_id}
        return CreateResult(instance_id, self.inputs_of(props) | outputs)

    def read(self, id_: str, props: dict[str, Any]) -> Any:
        """Live name, tags, private IP and status; an empty id when the instance is gone."""
        client = api.bcc(props["region"])

        def fetch() -> dict[str, Any]:
            detail = _detail(client, id_)
            live = {"name": detail.get("name", props.get("name")), "tags": live_tags(detail)}
            boot = {"boot_image_id": props.get("boot_image_id") or detail.get("imageId")}
            return self.inputs_of(props) | live | instance_outputs(id_, detail) | boot

        return self.read_or_gone(id_, fetch)

    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        """Rename and retag in place (the only in-place changes `diff` allows)."""
        client = api.bcc(news["region"])
        if olds.get("name") != news.get("name"):
            api.call("ModifyInstanceAttribute", client.modify_instance_attributes, id_, name=news["name"])
        self._retag(client, id_, olds.get("tags") or {}, news.get("tags") or {})
        return UpdateResult(self.inputs_of(news) | {key: olds.get(key) for key in self.OUTPUTS})

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        """Release the instance and wait until Baidu no longer lists it."""
        client = api.bcc(props["region"])
        ignore_not_found(lambda: api.call("ReleaseInstance", client.release_instance, id_))
        self.wait_until(f"instance {id_} to be released", lambda: _gone(client, id_))

    def _pick_image(self, client: Any, os_name: str) -> str:
        images: list[dict[str, Any]] = []
        marker = None
        while True:
            page = api.call("ListImages", client.list_images, image_type=GPU_IMAGE_TYPE, marker=marker)
            images += page.get("images") or []
            marker = page.get("nextMarker")
            if not page.get("isTruncated") or not marker:
                return pick_image(images, os_name)

    def _wait_running(self, client: Any, instance_id: str) -> dict[str, Any]:
        seen: dict[str, Any] = {}

        def running() -> bool:
            seen.update(_detail(client, instance_id))
            if seen.get("status") in FAILED:
                raise RuntimeError(f"instance {instance_id} entered status {seen['status']} while starting")
            return seen.get("status") == RUNNING

        self.wait_until(f"instance {instance_id} to be Running", running)
        return seen

    def _retag(self, client: Any, id_: str, old: Mapping[str, str], new: Mapping[str, str]) -> None:
        from baidubce.services.bcc.bcc_model import TagModel

        unbind, bind = tag_changes(old, new)
        if unbind:
            models = [TagModel(t["tagKey"], t["tagValue"]) for t in unbind]
            api.call("UnbindInstanceTags", client.unbind_instance_from_tags, id_, models)
        if bind:
            models = [TagModel(t["tagKey"], t["tagValue"]) for t in bind]
            api.call("BindInstanceTags", client.bind_instance_to_tags, id_, models)


def _detail(client: Any, instance_id: str) -> dict[str, Any]:
    return api.call("GetInstance", client.get_instance, instance_id).get("instance") or {}


def _gone(client: Any, instance_id: str) -> bool:
    try:
        return _detail(client, instance_id).get("status") in GONE
    except api.BaiduApiError as exc:
        if exc.not_found:
            return True
        raise


@dataclass(frozen=True)
class BccInstanceArgs:
    """Inputs of one BCC instance.

    Attributes:
        region: Baidu region id (`bj`); selects the API endpoint.
        zone: zone name (`cn-bj-a`).
        spec: instance spec (`bcc.hgn5IB.c116m978.8A100-80g`).
        name: instance name (letters, digits, Chinese, `-_ /.`; starts with a letter).
        subnet_id: subnet to place the instance in.
        security_group_ids: security groups of the instance.
        hostname: OS hostname, or None for Baidu's default.
        image_id: boot image; None picks the newest public GPU image of `image_os`.
        image_os: OS of the picked image (`Ubuntu`).
        deploy_set_id: deploy set (placement) to join, or None.
        ehc_cluster_id: EHC cluster for RDMA instances, or None.
        keypair_id: SSH key pair to install, or None.
        bid_model: None (on demand), `market` or `custom` (spot).
        bid_price: spot bid in CNY per minute, only with `custom`.
        root_disk_size_gb: system disk size in GB, or None for the image default.
        tags: tags, key -> value.
    """

    region: pulumi.Input[str]
    zone: pulumi.Input[str]
    spec: pulumi.Input[str]
    name: pulumi.Input[str]
    subnet_id: pulumi.Input[str]
    security_group_ids: pulumi.Input[Sequence[pulumi.Input[str]]]
    hostname: pulumi.Input[str] | None = None
    image_id: pulumi.Input[str] | None = None
    image_os: pulumi.Input[str] = IMAGE_OS
    deploy_set_id: pulumi.Input[str] | None = None
    ehc_cluster_id: pulumi.Input[str] | None = None
    keypair_id: pulumi.Input[str] | None = None
    bid_model: str | None = None
    bid_price: str | None = None
    root_disk_size_gb: int | None = None
    tags: Mapping[str, str] | None = None


class BccInstance(BaiduResource, module="baiducloud", name="BccInstance"):
    """A BCC instance (type `pulumi-python:dynamic/baiducloud:BccInstance`).

    Outputs:
        instance_id: the instance id (`i-...`), also the resource id.
        internal_ip: the private IPv4 address.
        status: the instance status at the last create/read (`Running`).
        payment_timing: Baidu's billing mode as reported by the instance.
        boot_image_id: the image the instance was created from.
    """

    PROVIDER = BccInstanceProvider
    instance_id: pulumi.Output[str]
    internal_ip: pulumi.Output[str]
    status: pulumi.Output[str]
    payment_timing: pulumi.Output[str]
    boot_image_id: pulumi.Output[str]

    def __init__(self, name: str, args: BccInstanceArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        """Register the instance; `args` are its inputs (see `BccInstanceArgs`)."""
        super().__init__(name, {field.name: getattr(args, field.name) for field in fields(args)}, opts)
