"""AWS network facts the price catalog lacks: EFA interfaces and bandwidth per instance type.

Source ids refer to `shared/reference-facts/interconnect.md`:
  K1  aws/karpenter-provider-aws instance-types.md (commit 692ccdd, 2026-07-11), generated
      from EC2 DescribeInstanceTypes: network bandwidth and `vpc.amazonaws.com/efa` count.
  K2  same repository, zz_generated.vpclimits.go / bandwidth.go (commit 7f27b4e): network
      cards per instance type.
  D1  AWS EC2 user guide (archived 2023-06), efa.md: EFA-capable instance list.
  N1  aws/aws-ofi-nccl platform-aws.cpp (commit 2daf7d3): which platforms use GPUDirect
      RDMA over EFA (`gdr_required=true`).
  K3  aws/karpenter-provider-aws zz_generated.vpclimits.go (commit 01a436f, generated
      2026-08-06 from EC2 DescribeInstanceTypes): `NetworkCards[].MaximumNetworkInterfaces`,
      the interfaces each network card takes (p5/p5e: 2 on each of 32 cards; p5en and
      p6-b200: 4 on each card).
  D2  AWS EC2 user guide, efa-acc-inst-types.md ("Maximize network bandwidth ... with
      multiple network cards"): the primary interface (card 0, device 0) cannot be
      EFA-only; further cards take EFA-only interfaces, which use no IP address; the P5
      and P5e example attaches 32 EFA devices with one ENA. Which other types accept
      EFA-only is not in the reference facts: they keep EFA with ENA (`efa_only` False).

Instance types not in the table have no EFA (K1 lists none for them); their network
bandwidth is not recorded here and is reported as None.
"""

from __future__ import annotations

from typing import NamedTuple


class AwsNetwork(NamedTuple):
    """Network facts for one EC2 instance type.

    Attributes:
        max_efa_interfaces: EFA interfaces the type accepts (0 = no EFA).
        network_cards: network cards; EFA interface k goes on card k.
        gbps: advertised network bandwidth, Gbps.
        gpudirect_rdma: whether EFA reads/writes accelerator memory directly.
        unsourced: note for any figure that no source confirmed ("" if all sourced).
        interfaces_per_card: network interfaces each card takes (K3); 0 when not recorded.
        efa_only: whether secondary EFA interfaces can be EFA-only, without an IP (D2).
    """

    max_efa_interfaces: int
    network_cards: int
    gbps: int
    gpudirect_rdma: bool
    unsourced: str = ""
    interfaces_per_card: int = 0
    efa_only: bool = False


# instance type -> facts (K1 bandwidth and EFA count, K2 network cards, N1 GPUDirect).
AWS_NETWORK: dict[str, AwsNetwork] = {
    "p3dn.24xlarge": AwsNetwork(1, 1, 100, False),
    "p4d.24xlarge": AwsNetwork(4, 4, 400, True),
    "p4de.24xlarge": AwsNetwork(4, 4, 400, True),
    "p5.4xlarge": AwsNetwork(1, 1, 100, False, "network cards unsourced [1]"),
    "p5.48xlarge": AwsNetwork(32, 32, 3200, True, interfaces_per_card=2, efa_only=True),
    "p5e.48xlarge": AwsNetwork(32, 32, 3200, True, interfaces_per_card=2, efa_only=True),
    "p5en.48xlarge": AwsNetwork(16, 16, 3200, True, interfaces_per_card=4, efa_only=True),
    "p6-b200.48xlarge": AwsNetwork(8, 8, 3200, True, interfaces_per_card=4, efa_only=True),
    "g4dn.8xlarge": AwsNetwork(1, 1, 50, False),
    "g4dn.12xlarge": AwsNetwork(1, 1, 50, False),
    "g4dn.16xlarge": AwsNetwork(1, 1, 50, False),
    "g4dn.metal": AwsNetwork(1, 1, 100, False, "EFA count unsourced [1]; D1 says EFA supported"),
    "g5.8xlarge": AwsNetwork(1, 1, 25, False),
    "g5.12xlarge": AwsNetwork(1, 1, 40, False),
    "g5.16xlarge": AwsNetwork(1, 1, 25, False),
    "g5.24xlarge": AwsNetwork(1, 1, 50, False),
    "g5.48xlarge": AwsNetwork(1, 1, 100, False),
    "g6.8xlarge": AwsNetwork(1, 1, 25, False),
    "g6.12xlarge": AwsNetwork(1, 1, 40, False),
    "g6.16xlarge": AwsNetwork(1, 1, 25, False),
    "g6.24xlarge": AwsNetwork(1, 1, 50, False),
    "g6.48xlarge": AwsNetwork(1, 1, 100, False),
    "g6e.8xlarge": AwsNetwork(1, 1, 25, False),
    "g6e.12xlarge": AwsNetwork(1, 1, 100, False),
    "g6e.16xlarge": AwsNetwork(1, 1, 35, False),
    "g6e.24xlarge": AwsNetwork(2, 2, 200, False),
    "g6e.48xlarge": AwsNetwork(4, 4, 400, False),
    "trn1.32xlarge": AwsNetwork(8, 8, 800, True),
    "trn1n.32xlarge": AwsNetwork(16, 16, 1600, True),
    "trn2.48xlarge": AwsNetwork(16, 16, 3200, True, "network cards unsourced [16]"),
    "dl1.24xlarge": AwsNetwork(4, 4, 400, False, "EFA count unsourced [4]; GPUDirect unsourced"),
}


def aws_network(instance_type: str) -> AwsNetwork | None:
    """Network facts for an EC2 instance type, or None when the table has no row for it.

    Args:
        instance_type: EC2 instance type, e.g. `p4d.24xlarge`.
    """
    return AWS_NETWORK.get(instance_type)


def max_efa_interfaces(instance_type: str) -> int:
    """Maximum EFA interfaces for an EC2 instance type (K1); 0 when it has no EFA.

    Args:
        instance_type: EC2 instance type, e.g. `p5.48xlarge` (32), `p4d.24xlarge` (4).
    """
    facts = AWS_NETWORK.get(instance_type)
    return facts.max_efa_interfaces if facts else 0
