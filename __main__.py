"""The trainstack Pulumi program: read the stack's cluster config, build its component."""

import pulumi

from clouds.config import provider_region_key
from clouds.contract import CLUSTER_KEY, CONFIG_NAMESPACE, OUTPUT_NAMES
from components.registry import component_for
from profiles.stack_file import validate_cluster

# The same validation as `trainstack plan` and `check`: the cluster model, a known provider,
# the fields the catalog can confirm, and a provider region key (`aws:region`) that agrees.
raw = pulumi.Config(CONFIG_NAMESPACE).require_object(CLUSTER_KEY)
provider = raw.get("provider") if isinstance(raw, dict) else None
region_namespace, region_key = provider_region_key(str(provider)).split(":", 1)
config = validate_cluster(raw, pulumi.Config(region_namespace).get(region_key))
# A renamed cluster keeps its resources: list its old names under trainstack:previous_names.
previous = pulumi.Config(CONFIG_NAMESPACE).get_object("previous_names") or []
opts = pulumi.ResourceOptions(aliases=[pulumi.Alias(name=old) for old in previous])
cluster = component_for(config.provider)(pulumi.get_stack() or "cluster", config, opts)
for output_name in OUTPUT_NAMES:
    pulumi.export(output_name, getattr(cluster, output_name))
