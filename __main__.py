"""The trainstack Pulumi program: read the stack's cluster config, build its component."""

import pulumi

from clouds.config import provider_region_key
from clouds.contract import CLUSTER_KEY, CONFIG_NAMESPACE, OUTPUT_NAMES
from components.registry import component_for
from profiles.stack.file import validate_cluster

# The same validation as `trainstack plan` and `check`: the cluster model, a known provider,
# the fields the catalog can confirm, and a provider region key (`aws:region`) that agrees.
raw = pulumi.Config(CONFIG_NAMESPACE).require_object(CLUSTER_KEY)
provider = raw.get("provider") if isinstance(raw, dict) else None
region_namespace, region_key = provider_region_key(str(provider)).split(":", 1)
config = validate_cluster(raw, pulumi.Config(region_namespace).get(region_key))
# The cluster's name is stable: the first of trainstack:previous_names (its original name)
# after a `pulumi stack rename`, else the stack name. Every resource name, physical name, tag
# and description derives from it, so a renamed stack keeps every resource as it is; the
# aliases cover clusters renamed while the name still followed the stack.
previous = [str(old) for old in pulumi.Config(CONFIG_NAMESPACE).get_object("previous_names") or []]
stack = pulumi.get_stack() or "cluster"
cluster_name = previous[0] if previous else stack
aliases = [pulumi.Alias(name=old) for old in dict.fromkeys([*previous, stack]) if old != cluster_name]
cluster = component_for(config.provider, config.platform)(cluster_name, config, pulumi.ResourceOptions(aliases=aliases))
for output_name in OUTPUT_NAMES:
    pulumi.export(output_name, getattr(cluster, output_name))
# A generated admin key (Azure, Baidu, ...) is exported only as a Pulumi secret:
# `pulumi stack output ssh_private_key --show-secrets -s STACK`. None when the stack gives a public key.
if hasattr(cluster, "ssh_private_key"):
    pulumi.export("ssh_private_key", pulumi.Output.secret(cluster.ssh_private_key))
# TPU slices requested as queued resources (GCP `queued_resource: true`): their controller VM.
if getattr(cluster, "queued_resource_controller", None) is not None:
    pulumi.export("queued_resource_controller", cluster.queued_resource_controller)
# What a data link needs run by hand after `pulumi up` (Alibaba: the export of write-back results).
if getattr(cluster, "data_commands", None) is not None:
    pulumi.export("data_commands", cluster.data_commands)
