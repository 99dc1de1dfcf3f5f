"""Per-provider readers of the SkyPilot reference extract, used by `profiles.catalog.build`.

Each builder takes the extract folder and the build date and returns clean `Offering`s.
"""

from __future__ import annotations

from profiles.catalog.sources.alicloud import META as ALICLOUD_META
from profiles.catalog.sources.alicloud import build_alicloud
from profiles.catalog.sources.aws import build_aws
from profiles.catalog.sources.azure import build_azure
from profiles.catalog.sources.gcp import build_gcp

# provider -> (builder, extract files it reads)
SOURCE_BUILDERS = {
    "aws": (build_aws, ("aws_gpu.csv",)),
    "azure": (build_azure, ("azure_gpu.csv",)),
    "gcp": (build_gcp, ("gcp_gpu.csv", "gcp_gpu_host_vms.csv")),
}

# provider -> (builder, metadata) for sources other than the SkyPilot extract.
OTHER_BUILDERS = {
    "alicloud": (build_alicloud, ALICLOUD_META),
}
