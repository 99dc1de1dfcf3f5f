"""The trainstack Pulumi program: read the stack's cluster config, build its component."""

import pulumi

from clouds.config import check_provider_region, parse_cluster_config, provider_region_key
from clouds.contract import CLUSTER_KEY, CONFIG_NAMESPACE, OUTPUT_NAMES
from components.registry import component_for

config = parse_cluster_config(pulumi.Config(CONFIG_NAMESPACE).require_object(CLUSTER_KEY))
# The provider's default region key (`aws:region`) must not point somewhere else.
region_namespace, region_key = provider_region_key(config.provider).split(":", 1)
check_provider_region(config, pulumi.Config(region_namespace).get(region_key))
# A renamed cluster keeps its resources: list its old names under trainstack:previous_names.
previous = pulumi.Config(CONFIG_NAMESPACE).get_object("previous_names") or []
opts = pulumi.ResourceOptions(aliases=[pulumi.Alias(name=old) for old in previous])
cluster = component_for(config.provider)(pulumi.get_stack() or "cluster", config, opts)
for output_name in OUTPUT_NAMES:
    pulumi.export(output_name, getattr(cluster, output_name))
