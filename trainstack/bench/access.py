"""The steps that take the benchmark kit to a stack's first node and its results back, through
what the stack allows: the cloud's own way in (`Cloud.access`: Session Manager, IAP,
Bastion), else SSH from an address the stack's `ssh_cidrs` lists. No step assumes an SSH
port the stack does not open.
"""

from __future__ import annotations

from pathlib import Path

from clouds.access import GROUP, NodeAccess
from clouds.registry import CLOUDS

# A cloud without its own way in: SSH from a host whose address `ssh_cidrs` lists (a
# bastion or VPN in the cluster's network), to a node's private address.
BY_SSH = NodeAccess(
    service="SSH from an address in ssh_cidrs",
    needs="a host in the cluster's network (bastion or VPN) whose address ssh_cidrs lists",
    find="pulumi stack output node_private_ips -s {stack}",
    shell="ssh {node}",
    copy_to="scp {file} {node}:",
    copy_back="scp {node}:{remote} {local}",
)
RESULTS = "run.json"


def node_access(provider: str) -> NodeAccess:
    """The way onto a node of `provider`'s clusters: its `Cloud.access`, else `BY_SSH`."""
    found = CLOUDS.get(provider)
    return found.access if found is not None and found.access is not None else BY_SSH


def access_steps(stack: str, cluster, script: Path, results: str) -> list[str]:
    """Numbered lines: reach the first node, put the kit there, run it, bring `results` back.

    Args:
        stack: the stack name (`training-a100`).
        cluster: its `ClusterConfig` (provider, region, zone, nodes, ssh_cidrs, data, job).
        script: the kit written on this machine.
        results: the results file's path on the node (`/fsx/trainstack-bench/results/run.json`).

    Returns:
        Lines to print, in the order to follow them.
    """
    way = node_access(cluster.provider)
    fill = {
        "stack": stack,
        "region": cluster.region,
        "zone": cluster.zone or cluster.region,
        "group": GROUP.format(stack=stack),
    }
    opened = f"SSH is admitted from {', '.join(cluster.ssh_cidrs)} only" if cluster.ssh_cidrs else "no SSH port is open"
    lines = [f"stack {stack}: {opened}; reach the nodes through {way.service}"]
    lines.append(f"  needs: {way.needs.format(**fill)}")
    missing = [c for c in way.ssh_cidrs if c not in cluster.ssh_cidrs]
    if way is BY_SSH and not cluster.ssh_cidrs:
        lines.append(
            "  first: the stack admits SSH from no address (ssh_cidrs: []): list your bastion's or VPN's CIDR in "
            f"ssh_cidrs of stacks/Pulumi.{stack}.yaml, then run `pulumi up -s {stack}`"
        )
    elif missing:
        lines.append(
            f"  first: add {', '.join(missing)} ({way.ssh_cidrs_source}) to ssh_cidrs in stacks/Pulumi.{stack}.yaml, "
            f"then run `pulumi up -s {stack}`: the stack admits it on TCP 22 only then"
        )
    if way.tunnel:
        lines.append(
            f"  keep open in another terminal (copies go through it): {way.tunnel.format(node='NODE', **fill)}"
        )
    node = {"node": "NODE", **fill}
    lines += [
        f"  1. find the nodes (NODE = the first): {way.find.format(**fill)}",
        f"  2. open a shell there:               {way.shell.format(**node)}",
        "  3. the kit onto NODE:                "
        + (
            way.copy_to.format(file=script, **node)
            if way.copy_to
            else f"in that shell, in the trainstack checkout on the shared file system: trainstack bench run -s {stack} --out ."
        ),
        f"  4. list the {cluster.nodes} nodes on NODE:         one host name per line in ~/hostfile "
        "(passwordless ssh between them)",
        "  5. on NODE:                          HOSTFILE=~/hostfile bash run-bench.sh"
        + (" (its training runs through the stack's job launcher)" if cluster.job is not None else ""),
        f"  6. the results back:                {_copy_back(way, cluster, stack, results, node)}",
        f"  7. here:                             trainstack bench import {RESULTS}",
    ]
    return lines


def _copy_back(way: NodeAccess, cluster, stack: str, results: str, node: dict[str, str]) -> str:
    """The copy of the results file to this machine: through the team's bucket when the nodes
    may write there (`data.write_back`), else the cloud's copy, else printed and saved by hand."""
    data = getattr(cluster, "data", None)
    if way.bucket_copy and data is not None and data.write_back:
        uri = f"{data.source.rstrip('/')}/trainstack-bench/{stack}-{RESULTS}"
        on_node = way.bucket_copy.format(src=results, dst=uri)
        return f"on NODE: {on_node}; here: {way.bucket_copy.format(src=uri, dst=RESULTS)}"
    if way.copy_back:
        return way.copy_back.format(remote=results, local=RESULTS, **node)
    return f"in the shell on NODE: cat {results}; save what it prints here as {RESULTS} (a few KB)"
