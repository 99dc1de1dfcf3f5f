"""The cluster's admin SSH key, the same on every cloud: the stack's `ssh_public_key`, or one
generated in the Pulumi state.

A generated private key lives only in the Pulumi state (the TLS provider marks it secret);
the clouds' own key generation would write it to a local file or return it once, so it is
never used. Components export it only as a secret (`cluster_base.secret_private_key`).
"""

from __future__ import annotations

import pulumi
import pulumi_tls as tls

from clouds.contract import ClusterConfig

ED25519 = ("ED25519", None)
# RSA 4096 for clouds that import no ED25519 key (or where that it does is unsourced).
RSA_4096 = ("RSA", 4096)


def admin_public_key(
    name: str, args: ClusterConfig, opts: pulumi.ResourceOptions, key_type: tuple[str, int | None] = ED25519
) -> tuple[pulumi.Output[str], tls.PrivateKey | None]:
    """The admin OpenSSH public key: `args.ssh_public_key` (stripped), or a generated key.

    Args:
        name: the cluster name; a generated key is `{name}-admin-key`.
        args: the cluster config (`ssh_public_key`).
        opts: child options.
        key_type: (algorithm, RSA bits or None) of a generated key: `ED25519` or `RSA_4096`.

    Returns:
        The public key and the generated key resource (None when the stack gave a key).
    """
    if args.ssh_public_key:
        return pulumi.Output.from_input(args.ssh_public_key.strip()), None
    algorithm, bits = key_type
    key = tls.PrivateKey(f"{name}-admin-key", algorithm=algorithm, rsa_bits=bits, opts=opts)
    return key.public_key_openssh, key
