"""How a user reaches a cluster's nodes from their own machine (`Cloud.access`).

No component opens an SSH port to the internet by default (`ssh_cidrs: []`): each cloud has
its own way in (AWS Session Manager, GCP IAP TCP forwarding, Azure Bastion). A `NodeAccess`
holds that way as command templates; `trainstack.bench.access` fills them in for a stack.
A cloud without one is reached over SSH from an address the stack's `ssh_cidrs` lists.
"""

from __future__ import annotations

from dataclasses import dataclass

# Placeholders the templates may use: {stack}, {region}, {zone} (the stack's), {group} (the
# stack's one node group, its `node_ids` output: `GROUP`), {node} (a name or id that `find`
# printed), {file} (a local file), {remote} (a path on the node), {local} (a local file name).
GROUP = "$(pulumi stack output node_ids -s {stack} --json | tr -d '[]\" \\n')"


@dataclass(frozen=True)
class NodeAccess:
    """A cloud's way onto a node without an SSH port open to the internet.

    Attributes:
        service: what carries the connection, in words (`SSM Session Manager`).
        needs: what must be in place on the user's side first, one line.
        find: command printing the nodes' names or ids.
        shell: command opening a shell on `{node}`.
        copy_to: command copying local `{file}` to the home of `{node}`, or "" when the
            service copies no files (then the kit is rendered on the node itself).
        copy_back: command copying `{remote}` on `{node}` to local `{local}`, or "" (then the
            small results file is printed in the shell and saved by hand).
        tunnel: command to keep running (another terminal) while copying, or "".
        bucket_copy: the object-storage copy command (`{src}` to `{dst}`), used through the
            team's bucket when the stack's `data.write_back` lets the nodes write there; "".
        ssh_cidrs: CIDRs the stack's `ssh_cidrs` must list for this way to work (the
            service's own source range), with the source of that range.
        ssh_cidrs_source: where `ssh_cidrs` comes from.
    """

    service: str
    needs: str
    find: str
    shell: str
    copy_to: str = ""
    copy_back: str = ""
    tunnel: str = ""
    bucket_copy: str = ""
    ssh_cidrs: tuple[str, ...] = ()
    ssh_cidrs_source: str = ""
