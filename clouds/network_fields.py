"""A stack's `subnet_id` and `ssh_public_key`, checked as text before any cloud sees them.

A malformed subnet id fails only at `pulumi up`, in the lookup; a public key with a second line
adds a second (unreviewed) key to `authorized_keys`, or breaks the cloud-init it is written into.
"""

from __future__ import annotations

import re

from clouds.registry import CLOUDS
from clouds.words import article

# OpenSSH's public key line (sshd(8), "AUTHORIZED_KEYS FILE FORMAT"): type, base64 key, comment.
_KEY_TYPES = (
    "ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp256|ecdsa-sha2-nistp384|ecdsa-sha2-nistp521|"
    "sk-ssh-ed25519@openssh\\.com|sk-ecdsa-sha2-nistp256@openssh\\.com"
)
SSH_PUBLIC_KEY = re.compile(rf"(?:{_KEY_TYPES}) [A-Za-z0-9+/]{{16,}}={{0,3}}(?: [^\x00-\x1f\x7f]{{0,200}})?")


def subnet_id_problem(provider: str, subnet_id: str | None) -> str | None:
    """Why `subnet_id` is not a subnet id of `provider`'s form (one line with an example), or None.

    A cloud whose component takes no existing subnet leaves it to its validator, which says so.
    """
    cloud = CLOUDS.get(provider)
    if subnet_id is None or cloud is None or cloud.subnet_id is None:
        return None
    if cloud.subnet_id.fullmatch(subnet_id):
        return None
    shown = subnet_id if len(subnet_id) <= 80 else subnet_id[:77] + "..."
    return (
        f"subnet_id: {shown!r} is not {article(cloud.display_name)} subnet id; copy it from the console "
        f"or CLI, e.g. {cloud.subnet_id_example}"
    )


def ssh_public_key_problem(key: str | None) -> str | None:
    """Why `key` is not one OpenSSH public key line (one line with the fix), or None."""
    if key is None or SSH_PUBLIC_KEY.fullmatch(key.strip()):
        return None
    if "\n" in key.strip() or "\r" in key.strip():
        what = "has more than one line"
    else:
        what = "is not an OpenSSH public key line"
    return (
        f"ssh_public_key: the key {what}; give one line as ssh-keygen writes it to the .pub file, "
        "e.g. ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA... you@host"
    )
