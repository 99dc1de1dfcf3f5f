"""`resolve` and `plan` state the same cost for the same stack, on every cloud and file-system kind.

For each workload the choice `resolve` ranks is written as a stack (`cluster_config`) and priced
as `plan`, the stack header and the budget policy price it (`price_stack`, the real catalog):
the job total and USD/hour (everything per hour of the run) agree to the cent, whatever the file
system is (a recorded list price, a third-party one, the explicit estimate of a cloud without a
price), however the data is staged (a lazy link, an import job, a copy from one node) and when
the row sized the file system up to feed its GPUs.
"""

from __future__ import annotations

import pytest

from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack_price import price_stack
from profiles.stack_writer import cluster_config

BASE = {"accelerators": ["A100:8", "A100-80GB:8", "H100:8"], "nodes": 2, "interconnect": "rdma"}
IMAGES = {"work": {"images": 1281167, "epochs": 90, "flops_per_image": "24.5G", "mfu": 0.16}}
DATA = {"size": "2TiB", "files": "1.28M", "passes": 90}
BLOB = "https://teamdata.blob.core.windows.net/datasets/imagenet"


@pytest.mark.parametrize(
    ("fields", "service"),
    [
        pytest.param(
            {
                "providers": ["aws"],
                "hours": 72,
                "purchase": "spot",
                "spot": {"checkpoint_interval": "1h"},
                "file_system": {"capacity": "4800GiB"},
            },
            "FSx",
            id="aws-fsx-spot-listed",
        ),
        pytest.param(
            {"providers": ["aws"], **IMAGES, "data": {"source": "s3://team/imagenet", **DATA}},
            "FSx",
            id="aws-fsx-lazy-link-sized-from-data",
        ),
        pytest.param(
            {"providers": ["gcp"], "hours": 10, "data": {"source": "gs://team/imagenet", **DATA, "passes": 2}},
            "filestore",
            id="gcp-filestore-rsync",
        ),
        pytest.param(
            {
                "providers": ["gcp"],
                "hours": 10,
                "file_system": {"capacity": "36000GiB", "throughput": 250},
                "data": {"source": "gs://team/imagenet", **DATA, "passes": 2},
            },
            "lustre",
            id="gcp-lustre-import",
        ),
        pytest.param(
            {"providers": ["gcp"], **IMAGES, "data": {"source": "gs://team/imagenet", **DATA}},
            "lustre",
            id="gcp-sized-up-to-feed-the-gpus",
        ),
        pytest.param(
            {"providers": ["azure"], "hours": 72, "data": {"source": BLOB, "resource_group": "rg", **DATA}},
            "Azure Managed Lustre",
            id="azure-amlfs-estimate",
        ),
        pytest.param(
            {
                "providers": ["alicloud"],
                "accelerators": ["A100-80GB:8"],
                "hours": 72,
                "jurisdiction": "cn-mainland",
                "file_system": {"capacity": "4800GiB", "throughput": 100},
            },
            "CPFS",
            id="alicloud-cpfs-cny",
        ),
        pytest.param(
            {
                "providers": ["tencentcloud"],
                "accelerators": ["A100:8"],
                "interconnect": "none",
                "hours": 72,
                "file_system": {"capacity": "4800GiB"},
            },
            "CFS Turbo",
            id="tencent-cfs-turbo-estimate",
        ),
    ],
)
def test_resolve_and_plan_state_the_same_total(real_catalog, fields, service):
    spec = parse_spec({"name": "agree", **BASE, **fields})
    chosen = resolve(spec, real_catalog.offerings).choice.candidate
    assert chosen.storage is not None and service in chosen.storage.service
    config = cluster_config(spec, chosen, real_catalog.version)
    price = price_stack(config, real_catalog.offerings, real_catalog.version)
    assert price.cost is not None and price.usd_total is not None
    # the stack keeps hours to 4 decimals: at most 0.00005 h x USD/hour apart
    assert price.usd_total == pytest.approx(chosen.usd_total, abs=0.005 + 0.00005 * chosen.total_usd_per_hour)
    assert price.total_usd_per_hour == pytest.approx(chosen.total_usd_per_hour, rel=1e-6, abs=1e-4)
    assert price.usd_storage == pytest.approx(chosen.usd_storage, abs=0.005 + 0.00005 * chosen.storage.usd_per_hour)
    assert (price.cost.usd_requests or 0.0) == pytest.approx(chosen.usd_requests or 0.0, abs=0.005)
