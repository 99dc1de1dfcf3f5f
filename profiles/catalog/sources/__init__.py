"""Per-provider readers of the reference sources, used by `profiles.catalog.build`.

Each builder takes the source folder and the row date and returns clean `Offering`s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from profiles.catalog.sources.alicloud import META as ALICLOUD_META
from profiles.catalog.sources.alicloud import build_alicloud
from profiles.catalog.sources.aws import build_aws
from profiles.catalog.sources.azure import build_azure
from profiles.catalog.sources.gcp import build_gcp
from profiles.catalog.sources.tencentcloud import META as TENCENTCLOUD_META
from profiles.catalog.sources.tencentcloud import build_tencentcloud

# provider -> (builder, SkyPilot extract files it reads, sub-folder of the reference catalog).
# AWS and GCP read the schema-v8 snapshot (`v8/`); Azure has no newer file than the v6
# extract in the parent folder (`v8/README.md`).
SOURCE_BUILDERS = {
    "aws": (build_aws, ("aws_gpu.csv",), "v8"),
    "azure": (build_azure, ("azure_gpu.csv",), "."),
    "gcp": (build_gcp, ("gcp_gpu.csv", "gcp_gpu_host_vms.csv"), "v8"),
}

# provider -> (builder, metadata) for sources other than the SkyPilot extract.
OTHER_BUILDERS: dict[str, tuple[Callable[..., list[Any]], dict[str, Any]]] = {
    "alicloud": (build_alicloud, ALICLOUD_META),
    "tencentcloud": (build_tencentcloud, TENCENTCLOUD_META),
}
