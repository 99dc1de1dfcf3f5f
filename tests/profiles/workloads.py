"""Workload specs the decision-side tests start from (plain dicts, as a workload YAML reads)."""

# 2 nodes on RDMA, any purchase option, 72 h: the shape of profiles/workloads/training-a100.yaml
# without its accelerators, spot settings and file system.
TWO_NODES_72H = {"nodes": 2, "interconnect": "rdma", "purchase": "any", "hours": 72}
