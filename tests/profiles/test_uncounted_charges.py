"""Charges of a bucket link with no published price are kept out of the cost and said so once,
in the row and in the stack's cost (header, `plan`): Alibaba's CPFS data-flow bandwidth, OSS and
Azure Blob requests (`facts.request_prices` names what was searched)."""

from __future__ import annotations

import pytest

from profiles.cost.estimate import JobHours
from profiles.costing import candidates
from profiles.spec import parse_spec
from profiles.stack.price import price_stack
from profiles.stack.writer import cluster_config
from tests.profiles.offering_factory import offering

ALIBABA = offering(provider="alicloud", region="cn-beijing", zone="cn-beijing", currency="CNY", on_demand_native=200.0)
# 3 TiB sized from the data: 3,840 GiB of CPFS at 200 MB/s per TiB gives 750 MB/s, so the flow
# is the smallest spec below it, 600 MB/s (CreateDataFlow).
FLOW = "not counted: the CPFS data flow's 600 MB/s bandwidth, which Alibaba bills; no published price for it was found"


@pytest.mark.parametrize(
    ("node", "source", "extra", "uncounted"),
    [
        pytest.param(
            ALIBABA,
            "oss://team/imagenet",
            {},
            [FLOW, "not counted: alicloud bucket requests (no published request price was found)"],
            id="alibaba-flow-and-oss",
        ),
        pytest.param(
            offering(),
            "https://teamdata.blob.core.windows.net/datasets/imagenet",
            {"resource_group": "rg"},
            ["not counted: azure bucket requests (no published request price was found)"],
            id="azure-blob",
        ),
    ],
)
def test_an_unpriced_link_charge_is_left_out_and_said_once(node, source, extra, uncounted):
    data = {"source": source, "size": "3TiB", "files": 900_000, "passes": 10, **extra}
    spec = parse_spec({"name": "t", "accelerators": ["A100-80GB:8"], "hours": "24h", "data": data})
    (row,) = candidates(spec, node, JobHours(24.0), nodes=2)
    assert row.usd_requests is None
    for text in uncounted:
        assert row.notes.count(f"data: {text}") == 1
    price = price_stack(cluster_config(spec, row, "v"), [node], "v")
    assert price.cost is not None and price.cost.usd_requests is None
    for text in uncounted:
        assert price.caveats.count(text) == 1
