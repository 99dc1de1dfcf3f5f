"""Alibaba Cloud: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import MANUAL_RESTART_HOURS, Cloud, Feature, FileSystemRule, Healing

# Source: china-clouds.md section 0 item 2 and the official deployment-set doc.
SPOT_NO_DEPLOYMENT_SET = (
    "Alibaba spot instances cannot join a deployment set (Alibaba's deployment-set documentation), "
    "so spot nodes are placed in the zone without the "
    "LowLatency deployment set"
)
# Source: pulumi-alicloud 4.0.0 `ess.ScalingGroup` / `ess.ScalingConfiguration` (no input names one).
GROUP_NO_DEPLOYMENT_SET = (
    "the nodes are an ESS scaling group, and pulumi-alicloud 4.0.0's ESS scaling group and scaling "
    "configuration take no deployment set, so no node joins a LowLatency deployment set"
)
# The group replaces a lost node by itself (components/alicloud/scaling.py), but no node agent runs
# the job on Alibaba Cloud, so someone restarts it by hand: the restart is the manual one
# (clouds.base.MANUAL_RESTART_HOURS, unsourced); no replacement time of Alibaba's is recorded in
# shared/reference-facts.
HEALING = Healing(
    replaces_nodes=True,
    runs_job=False,
    restart_hours=MANUAL_RESTART_HOURS,
    summary="nodes are an ESS scaling group of fixed size: a lost node is replaced automatically "
    "(health check ECS; a reclaimed spot node by spot instance remedy), but no node agent runs the job "
    f"on Alibaba Cloud: restart it by hand (manual restart, unsourced {MANUAL_RESTART_HOURS:g} h)",
)

CLOUD = Cloud(
    healing=HEALING,
    name="alicloud",
    display_name="Alibaba Cloud",
    extra="china",
    sdk="pulumi-alicloud",
    mainland=re.compile(r"^cn-(?!hongkong)[a-z]+\d*$"),
    file_system=FileSystemRule("clouds.alicloud.cpfs:cpfs_sizing", "CPFS"),
    missing={
        Feature.BUCKET_LINK: "pulumi-alicloud has CPFS data flows with OSS (alicloud.nas.DataFlow on a Fileset), which trainstack does not wrap yet",
        Feature.SPOT_PLACEMENT: SPOT_NO_DEPLOYMENT_SET,
        Feature.ZONE_PRICES: "priced per region: set the stack's zone to a zone id before `pulumi up`",
    },
    stateful=frozenset(
        {
            "alicloud:nas/fileSystem:FileSystem",
        }
    ),
    untaggable=frozenset(
        {
            "alicloud:ecs/securityGroupRule:SecurityGroupRule",
            "alicloud:nas/mountTarget:MountTarget",
        }
    ),
)
