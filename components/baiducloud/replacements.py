"""Replace-on-change inputs of the Baidu dynamic resources (format: `trainstack.review.replacements`).

Sources:
  B  Our own Baidu dynamic providers (components/baiducloud): `BaiduProvider.diff` replaces on
     every changed input in the provider's `INPUTS` except `UPDATABLE` (in place) and
     `CREATE_ONLY` (ignored); the lists are read from the provider classes, never copied.
"""

from __future__ import annotations

from clouds.baiducloud.mock import TYPE_PREFIX
from clouds.replacement_rules import Replacements
from components.baiducloud.bcc_provider import BccInstanceProvider
from components.baiducloud.dynamic_base import BaiduProvider
from components.baiducloud.network_provider import SecurityGroupProvider, SubnetProvider, VpcProvider
from components.baiducloud.placement_provider import DeploySetProvider, EhcClusterProvider, KeypairProvider

# Baidu dynamic resource name (`pulumi-python:dynamic/baiducloud:<name>`) -> its provider (source B).
BAIDU_PROVIDERS: dict[str, type[BaiduProvider]] = {
    "BccInstance": BccInstanceProvider,
    "Vpc": VpcProvider,
    "Subnet": SubnetProvider,
    "SecurityGroup": SecurityGroupProvider,
    "DeploySet": DeploySetProvider,
    "EhcCluster": EhcClusterProvider,
    "Keypair": KeypairProvider,
}


def baidu_replace_inputs(provider: type[BaiduProvider]) -> tuple[str, ...]:
    """The inputs whose change makes a Baidu provider's `diff` replace (source B)."""
    kept = {*provider.UPDATABLE, *provider.CREATE_ONLY}
    return tuple(key for key in provider.INPUTS if key not in kept)


REPLACEMENTS = Replacements(
    # every input but the in-place ones
    replace_on_change={f"{TYPE_PREFIX}{name}": baidu_replace_inputs(p) for name, p in BAIDU_PROVIDERS.items()},
    # types with `name` in `UPDATABLE` rename in place, an exception to rule N
    name_in_place=frozenset(f"{TYPE_PREFIX}{name}" for name, p in BAIDU_PROVIDERS.items() if "name" in p.UPDATABLE),
)
