"""Notice watchers against a loopback metadata service speaking each cloud's documented format."""

from __future__ import annotations

import threading

import pytest

from nodeagent.clouds.aws import AwsImds, rebalance, spot_action
from nodeagent.clouds.azure import AzureScheduledEvents
from nodeagent.clouds.gcp import GcpMetadataValue
from nodeagent.notices import sources_for, watch
from tests.nodeagent.metadata_server import AWS_TOKEN, MetadataState, serve


@pytest.fixture
def service(request):
    state = MetadataState(request.param)
    server = serve(state)
    yield state, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize("service", ["aws"], indirect=True)
def test_aws_spot_action_needs_the_token_and_reads_action_and_time(service):
    state, url = service
    spot = spot_action(AwsImds(url))
    assert spot.poll() is None  # 404 before a notice
    state.set(spot=True)
    notice = spot.poll()
    assert (notice.cloud, notice.kind, notice.detail, notice.not_before) == (
        "aws",
        "spot-interruption",
        "terminate",
        "2017-09-18T08:22:00Z",
    )
    puts = [r for r in state.requests if r[0] == "PUT"]
    assert len(puts) == 1 and puts[0][2]["X-aws-ec2-metadata-token-ttl-seconds"] == "21600"
    gets = [r for r in state.requests if r[0] == "GET"]
    assert all(r[2]["X-aws-ec2-metadata-token"] == AWS_TOKEN for r in gets)


@pytest.mark.parametrize("service", ["aws"], indirect=True)
def test_aws_rebalance_recommendation_is_advice_not_an_interruption(service):
    state, url = service
    recommendation = rebalance(AwsImds(url))
    assert recommendation.poll() is None
    state.set(rebalance=True)
    notice = recommendation.poll()
    assert (notice.kind, notice.not_before, notice.leaves) == ("rebalance", "2020-10-27T08:22:00Z", False)
    assert spot_action(AwsImds(url)).poll() is None  # no interruption yet


@pytest.mark.parametrize("service", ["azure"], indirect=True)
def test_azure_preempt_for_this_vm_only_and_acknowledged(service):
    state, url = service
    events = AzureScheduledEvents(url)
    assert events.poll() is None  # only another VM's Preempt is scheduled
    state.set(preempt=True)
    notice = events.poll()
    assert (notice.cloud, notice.kind, notice.detail) == ("azure", "preempt", "602d9444-d2cd-49c7-8624-8643e7171297")
    assert notice.not_before == "Mon, 19 Sep 2016 18:29:47 GMT"
    assert state.acks == []  # not before the job has checkpointed
    notice.ack()
    assert state.acks == [{"StartRequests": [{"EventId": "602d9444-d2cd-49c7-8624-8643e7171297"}]}]
    assert all(r[2]["Metadata"] == "true" for r in state.requests)


@pytest.mark.parametrize("service", ["gcp"], indirect=True)
def test_gcp_preempted_and_maintenance_with_wait_for_change(service):
    state, url = service
    preempted, maintenance = sources_for("gcp", url)
    assert preempted.poll() is None and maintenance.poll() is None  # FALSE, NONE
    state.set(preempt=True)
    notice = preempted.poll()
    assert (notice.detail, notice.leaves) == ("TRUE", True)
    waits = [r for r in state.requests if "wait_for_change=true" in r[1]]
    assert waits and all("last_etag=%22FALSE%22" in r[1] for r in waits)
    state.set(maintenance=True)
    notice = maintenance.poll()  # the VM is stopped for the maintenance and comes back: advice
    assert (notice.detail, notice.leaves) == ("TERMINATE_ON_HOST_MAINTENANCE", False)
    assert all(r[2]["Metadata-Flavor"] == "Google" for r in state.requests)


@pytest.mark.parametrize("service", ["gcp"], indirect=True)
def test_gcp_live_migration_is_not_a_notice(service):
    _, url = service
    migrate = GcpMetadataValue(url, "maintenance-event", "maintenance", lambda v: v.startswith("TERMINATE"))
    assert migrate.is_notice("MIGRATE_ON_HOST_MAINTENANCE") is False


@pytest.mark.parametrize("service", ["aws"], indirect=True)
def test_watch_calls_back_once_with_the_first_interruption(service):
    state, url = service
    seen, advice, stop = [], [], threading.Event()
    threads = watch(sources_for("aws", url), seen.append, stop, interval=0.01, on_advice=advice.append)
    state.set(spot=True, rebalance=True)
    for thread in threads:
        thread.join(timeout=5)
    assert stop.is_set() and [(n.cloud, n.kind) for n in seen] == [("aws", "spot-interruption")]
    assert all(n.kind == "rebalance" for n in advice)


@pytest.mark.parametrize("service", ["aws"], indirect=True)
def test_a_rebalance_recommendation_asks_once_and_the_watch_goes_on(service):
    state, url = service
    seen, advice, stop = [], [], threading.Event()
    got_advice = threading.Event()
    threads = watch(
        sources_for("aws", url),
        seen.append,
        stop,
        interval=0.01,
        on_advice=lambda n: (advice.append(n), got_advice.set()),
    )
    state.set(rebalance=True)
    assert got_advice.wait(5)
    polls = len(state.requests)
    while len(state.requests) < polls + 10:  # the item stays: polled again, not reported again
        threading.Event().wait(0.01)
    assert not stop.is_set() and seen == [] and [n.kind for n in advice] == ["rebalance"]
    state.set(spot=True)  # the real notice still ends the watch
    for thread in threads:
        thread.join(timeout=5)
    assert stop.is_set() and [n.kind for n in seen] == ["spot-interruption"] and len(advice) == 1


def test_no_watcher_without_a_cloud_and_unknown_cloud_refused():
    assert sources_for("none") == []
    with pytest.raises(ValueError, match="cloud: 'oci'"):
        sources_for("oci")
