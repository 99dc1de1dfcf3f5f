"""Can a cloud provide the spec's parallel file system? Asked of each component's own
sizing rule, so the resolver never picks an offering whose stack the component would refuse.

Each rule is a pure function beside its component (no Pulumi import), called with the
requested capacity and throughput; a `ValueError` means that cloud cannot provide it, and
its one-line message says why. Baidu AI Cloud has no API-creatable parallel file system
here (china-clouds.md section 4), so any file system rules it out.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from clouds.contract import FileSystemConfig

# provider -> "module:function" taking a FileSystemConfig (see `_call`).
RULES: dict[str, str] = {
    "aws": "clouds.aws.fsx:fsx_sizing",
    "azure": "clouds.azure.amlfs:amlfs_sizing",
    "gcp": "clouds.gcp.filesystems:choose_file_system",
    "alicloud": "clouds.alicloud.cpfs:cpfs_sizing",
    "tencentcloud": "clouds.tencentcloud.turbo:turbo_sizing",
    "huaweicloud": "clouds.huaweicloud.sfs:turbo_sizing",
    "volcengine": "clouds.volcengine.vepfs:vepfs_sizing",
}
# Rules that take (capacity GiB, MB/s per TiB) rather than a FileSystemConfig.
_BY_NUMBERS = {"aws", "azure", "huaweicloud"}


def _rule(provider: str) -> Callable | None:
    target = RULES.get(provider)
    if target is None:
        return None
    module, function = target.split(":")
    return getattr(importlib.import_module(module), function)


def file_system_problem(provider: str, fs: FileSystemConfig) -> str | None:
    """Why `provider` cannot provide `fs` (one line), or None when it can."""
    rule = _rule(provider)
    if rule is None:
        return f"{provider} has no parallel file system trainstack can create; drop `file_system` or mount your own"
    try:
        rule(fs.capacity_gib, fs.throughput_mbps_per_tib) if provider in _BY_NUMBERS else rule(fs)
    except ValueError as exc:
        return str(exc).splitlines()[0]
    return None
