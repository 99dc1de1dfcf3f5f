"""The skeleton every cloud's `GpuCluster` component shares (`GpuClusterBase`).

Each cloud's `components/<cloud>/cluster.py` is a subclass that says only what differs: its
type token and registry name, how it tags (`cluster_tags`), which children it creates
(`build`) and any outputs beyond the provider-neutral ones (`extra_outputs`); the config is
checked by the cloud's own `validate_args` (`check`, found through the registry). The base keeps the order Pulumi's component guidance
asks for: every check before the first child, one `ResourceOptions(parent=self)` for every
child, and the public outputs (`clouds.contract.OUTPUT_NAMES`) set as attributes and
registered once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import pulumi

from clouds.common import cluster_tags
from clouds.contract import OUTPUT_NAMES, ClusterConfig
from clouds.mounts import mount_command
from clouds.registry import validator


class ClusterOutputs(NamedTuple):
    """The provider-neutral outputs a cloud's `build` computes (`usd_per_hour` comes from the
    config). See `clouds.contract.OUTPUT_NAMES` for what each holds."""

    node_ids: pulumi.Output[Any]
    node_private_ips: pulumi.Output[Any]
    placement_group: pulumi.Output[Any]
    file_system_dns: pulumi.Output[Any]
    file_system_mount_name: pulumi.Output[Any]


def nothing() -> pulumi.Output[Any]:
    """An output that is None (an output the cloud has no value for)."""
    return pulumi.Output.from_input(None)


def pool_outputs(node_ids: pulumi.Output[Any] | None = None) -> ClusterOutputs:
    """The outputs of a managed platform's pool (Azure ML, SageMaker, ModelArts, PAI): no node
    addresses, no placement group and no file system of its own; `node_ids` what the platform
    names its pool by (none by default)."""
    return ClusterOutputs(
        node_ids=node_ids if node_ids is not None else pulumi.Output.from_input([]),
        node_private_ips=pulumi.Output.from_input([]),
        placement_group=nothing(),
        file_system_dns=nothing(),
        file_system_mount_name=nothing(),
    )


def protected(opts: pulumi.ResourceOptions, **more: Any) -> pulumi.ResourceOptions:
    """`opts` for a stateful child (file system, fileset, data volume): `protect=True`, so that
    no `pulumi up` or `destroy` deletes what it holds, plus `more` resource options."""
    return pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(protect=True, **more))


def secret_private_key(key: Any) -> pulumi.Output[str | None]:
    """The generated admin key's OpenSSH private key as a Pulumi secret; None without one
    (the stack gave `ssh_public_key`)."""
    return pulumi.Output.secret(key.private_key_openssh) if key is not None else nothing()


class GpuClusterBase(pulumi.ComponentResource):
    """One multi-node GPU training cluster; subclasses are the clouds' components.

    Subclasses set `TYPE_TOKEN` (`trainstack:<cloud>:GpuCluster`) and `PROVIDER` (the
    registry name) and implement `build`; `check` runs the cloud's `validate_args`.

    Public outputs (attributes, registered): `OUTPUT_NAMES` (`file_system_mount_command` from the
    cloud's `mount_recipe`), plus `extra_outputs()`.
    """

    TYPE_TOKEN: ClassVar[str]
    PROVIDER: ClassVar[str]
    # The cloud's own tag rule, `(cluster name, the stack's tags) -> tags in the cloud's form`;
    # None: `clouds.common.cluster_tags` with `PROVIDER`.
    TAG_RULE: ClassVar[Callable[..., Any] | None] = None
    node_ids: pulumi.Output[Any]
    node_private_ips: pulumi.Output[Any]
    placement_group: pulumi.Output[Any]
    file_system_dns: pulumi.Output[Any]
    file_system_mount_name: pulumi.Output[Any]
    usd_per_hour: pulumi.Output[float | None]
    file_system_mount_command: pulumi.Output[str | None]

    def __init__(self, name: str, args: ClusterConfig, opts: pulumi.ResourceOptions | None = None) -> None:
        """Check `args`, then create the cluster's children and register its outputs.

        Args:
            name: the cluster name; every child name derives from it.
            args: the provider-neutral cluster config (provider must be `PROVIDER`).
            opts: resource options; pass `providers=` to target another region or account.

        Raises:
            ValueError: from `check`, when `args` cannot be built on this cloud, before any
                resource is registered.
        """
        self.check(name, args)
        super().__init__(self.TYPE_TOKEN, name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        outputs = self.build(name, args, self.cluster_tags(name, args), child)
        for key, value in outputs._asdict().items():
            setattr(self, key, value)
        self.usd_per_hour = pulumi.Output.from_input(args.usd_per_hour)
        self.file_system_mount_command = self._mount_command(args)
        self.register_outputs({**{key: getattr(self, key) for key in OUTPUT_NAMES}, **self.extra_outputs()})

    def _mount_command(self, args: ClusterConfig) -> pulumi.Output[str | None]:
        """`clouds.mounts.mount_command` from the file-system outputs and the cloud's
        `mount_recipe`; None without a file system or a recipe, or until the cloud reports the
        file system's address."""
        recipe = self.mount_recipe(args) if args.file_system is not None else None
        if recipe is None:
            return nothing()
        fstype, source, options = recipe
        return pulumi.Output.all(self.file_system_dns, self.file_system_mount_name).apply(
            lambda v: mount_command(fstype, source.format(dns=v[0], name=v[1]), options) if v[0] else None
        )

    def mount_recipe(self, args: ClusterConfig) -> tuple[str, str, str] | None:
        """How the cloud's nodes mount its file system: (fstype, source with `{dns}` and `{name}`
        for `file_system_dns` and `file_system_mount_name`, mount options); None when its nodes
        do not mount it (the default: the clouds whose file systems need a vendor client
        trainstack does not install)."""
        return None

    def check(self, name: str, args: ClusterConfig) -> None:
        """Refuse `args` the cloud cannot build, before any child: its `validate_args(args,
        name)` (`Cloud.validator`, `clouds.registry.validator`).

        Raises:
            ValueError: one line naming the field and the fix.
        """
        validate = validator(self.PROVIDER)
        if validate is None:
            raise ValueError(f"provider: {self.PROVIDER!r} is not registered in clouds.registry")
        validate(args, name)

    def cluster_tags(self, name: str, args: ClusterConfig) -> Any:
        """Tags (or labels) every taggable child gets: trainstack's own plus the stack's, in
        the form the cloud's resources take (a mapping; Volcengine: a list of key/value), by the
        cloud's `TAG_RULE`."""
        rule = type(self).TAG_RULE
        return cluster_tags(self.PROVIDER, name, args.tags) if rule is None else rule(name, args.tags)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the children (each with `opts=child`, names from `name`); return the outputs."""
        raise NotImplementedError

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """Outputs registered beside `OUTPUT_NAMES` (none by default)."""
        return {}
