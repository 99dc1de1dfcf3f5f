"""When does a rule's source mean "the internet"? Not only `0.0.0.0/0`.

`1.2.3.4/0` is `0.0.0.0/0` written differently, and `0.0.0.0/1` plus `128.0.0.0/1` cover the
whole internet in two halves. Any IPv4 source shorter than /8 (more than 16.7 million
addresses) or IPv6 source shorter than /16 counts as open to the internet here; that
threshold is a policy choice, not a sourced figure.
"""

from __future__ import annotations

import ipaddress
from typing import Any

NAMED_WORLD = {"*", "Internet", "Any", "any"}
MIN_PREFIX = {4: 8, 6: 16}


def is_world(source: Any) -> bool:
    """True when `source` (a CIDR, or a provider keyword such as Azure's `Internet`) is
    the whole internet or a block wide enough to count as it."""
    if not isinstance(source, str) or not source.strip():
        return False
    if source in NAMED_WORLD:
        return True
    try:
        network = ipaddress.ip_network(source.strip(), strict=False)
    except ValueError:
        return False
    return network.prefixlen < MIN_PREFIX[network.version]
