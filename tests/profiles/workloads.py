"""Workload specs the decision-side tests start from (plain dicts, as a workload YAML reads)."""

# 2 nodes on RDMA, any purchase option, 72 h: the shape of profiles/workloads/training-a100.yaml
# without its accelerators, spot settings and file system.
TWO_NODES_72H = {"nodes": 2, "interconnect": "rdma", "purchase": "any", "hours": 72}

# A100 and H100 on AWS, 1,200 A100-80GB GPU-hours, 100 h deadline: on the fixture catalog p5
# (47.3 h) meets it and p4d (150 h) misses it (`resolve --plot` draws both).
PLOTTED = {
    "accelerators": ["A100:8", "H100:8"],
    "providers": "aws",
    "deadline": "100h",
    "work": {"gpu_hours": 1200, "reference": "A100-80GB"},
}
