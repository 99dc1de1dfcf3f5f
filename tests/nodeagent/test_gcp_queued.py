"""The queued-resource controller (`nodeagent.gcp_queued`) against a loopback TPU v2 API that
answers in the documented format and moves its states as a real one does (`tpu_api_server`)."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import tarfile

import pytest

from clouds.gcp.queued import controller_config, queued_resource_body
from components.gcp.controller_script import CONTROLLER_SHIPPED, controller_script
from nodeagent.gcp_queued import Controller, MetadataToken, action, backoff_delay, from_config
from tests.nodeagent.tpu_api_server import TOKEN, TpuState, serve

PARENT = "projects/team-tpu/locations/us-east5-a"


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _body(resource_id: str, purchase: str = "spot") -> dict:
    return queued_resource_body(
        resource_id,
        "team-tpu",
        "us-east5-a",
        "v5p-8",
        "v2-alpha-tpuv5",
        "train-net",
        "train-subnet",
        "train-nodes@team-tpu.iam.gserviceaccount.com",
        ("https://www.googleapis.com/auth/logging.write",),
        {"trainstack-cluster": "train"},
        {"enable-oslogin": "TRUE"},
        purchase,
        None,
    )


@pytest.fixture
def api():
    state = TpuState()
    server, base = serve(state)
    yield state, base
    server.shutdown()
    server.server_close()


def _controller(base: str, clock: Clock, ids=("train-tpu-0", "train-tpu-1")) -> Controller:
    config = controller_config("team-tpu", "us-east5-a", {i: _body(i) for i in ids}, api=f"{base}/v2")
    config["metadata"] = base
    controller, poll = from_config(config, clock=clock)
    assert poll == 30.0
    return controller


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        pytest.param(None, "create", id="absent"),
        pytest.param("SUSPENDED", "delete", id="suspended"),
        pytest.param("FAILED", "delete", id="failed"),
        pytest.param("ACTIVE", "keep", id="active"),
        pytest.param("SUSPENDING", "wait", id="suspending"),
        pytest.param("PROVISIONING", "wait", id="provisioning"),
        pytest.param("WAITING_FOR_RESOURCES", "wait", id="waiting"),
        pytest.param("SOMETHING_NEW", "wait", id="unknown"),
    ],
)
def test_each_state_has_its_action(state, expected):
    assert action(state) == expected


@pytest.mark.parametrize(
    ("losses", "seconds"),
    [
        pytest.param(0, 0.0, id="first-request"),
        pytest.param(1, 30.0, id="first-loss"),
        pytest.param(3, 120.0, id="doubling"),
        pytest.param(9, 600.0, id="capped"),
    ],
)
def test_backoff_doubles_up_to_its_cap(losses, seconds):
    assert backoff_delay(losses, 30.0, 600.0) == seconds


def test_slices_are_requested_with_their_full_body_and_the_vms_token(api):
    state, base = api
    controller = _controller(base, Clock())
    assert [what for _, _, what in controller.step()] == ["create", "create"]
    assert [resource_id for resource_id, _ in state.created] == ["train-tpu-0", "train-tpu-1"]
    sent = state.created[0][1]
    node = sent["tpu"]["nodeSpec"][0]
    assert node["parent"] == PARENT and node["nodeId"] == "train-tpu-0"
    assert node["node"]["serviceAccount"]["email"] == "train-nodes@team-tpu.iam.gserviceaccount.com"
    assert node["node"]["labels"] == {"trainstack-cluster": "train"} and sent["spot"] == {}
    assert state.tokens_issued == 1  # one metadata token for every call until it expires
    states = [controller.step()[0][1] for _ in range(4)]
    assert states == ["CREATING", "ACCEPTED", "PROVISIONING", "ACTIVE"]
    assert state.state_of(f"{PARENT}/queuedResources/train-tpu-0") == "ACTIVE"


def test_a_preempted_slice_is_deleted_and_re_requested_after_the_backoff(api):
    state, base = api
    clock = Clock()
    controller = _controller(base, clock)
    for _ in range(5):  # both slices ACTIVE
        controller.step()
    state.preempt(f"{PARENT}/queuedResources/train-tpu-0")
    seen = []
    for _ in range(4):
        seen.append(controller.step())
    assert [row[0][1:] for row in seen] == [
        ("SUSPENDING", "wait"),
        ("SUSPENDED", "delete"),
        ("DELETING", "wait"),
        ("ABSENT", "backoff"),  # lost once: 30 s before asking again
    ]
    assert all(row[1][1:] == ("ACTIVE", "keep") for row in seen)  # the other slice is left alone
    assert ("DELETE", f"/v2/{PARENT}/queuedResources/train-tpu-0") in state.requests  # no force
    clock.now += 30
    assert controller.step()[0][1:] == ("ABSENT", "create")
    assert [resource_id for resource_id, _ in state.created] == ["train-tpu-0", "train-tpu-1", "train-tpu-0"]
    assert state.created[2][1] == state.created[0][1]  # the same full body again
    for _ in range(4):
        last = controller.step()
    assert last[0][1:] == ("ACTIVE", "keep") and controller.slices["train-tpu-0"].losses == 0


def test_a_slice_failing_again_waits_twice_as_long(api):
    state, base = api
    clock = Clock()
    controller = _controller(base, clock, ids=("train-tpu-0",))
    name = f"{PARENT}/queuedResources/train-tpu-0"
    controller.step()  # create
    state.fail(name)
    assert controller.step()[0][1:] == ("FAILED", "delete")
    controller.step()  # DELETING
    clock.now += 30
    assert controller.step()[0][2] == "create"
    state.fail(name)
    assert controller.step()[0][1:] == ("FAILED", "delete")
    controller.step()
    clock.now += 30
    assert controller.step()[0][2] == "backoff"  # second loss in a row: 60 s
    clock.now += 30
    assert controller.step()[0][2] == "create"


def test_an_outage_is_retried_on_the_next_pass(api):
    state, base = api
    controller = _controller(base, Clock(), ids=("train-tpu-0",))
    state.outages = 1
    assert controller.step() == [("train-tpu-0", "ERROR", "error 503")]
    assert controller.step()[0][2] == "create"


def test_the_token_is_fetched_again_before_it_expires(api):
    state, base = api
    clock = Clock()
    state.expires_in = 120
    token = MetadataToken(base, clock)
    assert token() == TOKEN and token() == TOKEN and state.tokens_issued == 1
    clock.now += 61  # within a minute of expiry
    token()
    assert state.tokens_issued == 2


def test_the_controller_script_ships_a_runnable_controller(tmp_path):
    config = controller_config("team-tpu", "us-east5-a", {"train-tpu-0": _body("train-tpu-0")})
    script = controller_script(config)
    written = script.split("<<'TRAINSTACK_QUEUED'\n", 1)[1].split("\nTRAINSTACK_QUEUED", 1)[0]
    assert json.loads(written) == config
    assert "ExecStart=/usr/bin/python3 -m nodeagent queued /etc/trainstack/queued.json" in script
    assert "RequiresMountsFor" not in script  # the controller waits for no file system
    encoded = script.split("echo '", 1)[1].split("'", 1)[0]
    with tarfile.open(fileobj=io.BytesIO(base64.b64decode(encoded)), mode="r:gz") as tar:
        assert sorted(m.name for m in tar.getmembers()) == sorted(f"nodeagent/{n}" for n in CONTROLLER_SHIPPED)
        tar.extractall(tmp_path, filter="data")
    bad = tmp_path / "queued.json"
    bad.write_text("{}")
    run = subprocess.run(
        [sys.executable, "-m", "nodeagent", "queued", str(bad)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2 and "queued resource config" in run.stderr


# The permission each TPU v2 REST method checks (Google's reference names them
# tpu.<collection>.<verb>): every call the controller made in the run above must be in its role.
_METHOD_PERMISSION = {"GET": "tpu.queuedResources.get", "POST": "tpu.queuedResources.create"}


def test_every_call_the_controller_makes_is_in_its_role_and_none_is_forced(api):
    from clouds.gcp.queued import CONTROLLER_PERMISSIONS

    state, base = api
    controller = _controller(base, Clock())
    for _ in range(5):
        controller.step()
    state.preempt(f"{PARENT}/queuedResources/train-tpu-0")
    for _ in range(3):
        controller.step()
    methods = {method for method, _ in state.requests}
    assert methods == {"GET", "POST", "DELETE"}
    needed = {_METHOD_PERMISSION.get(method, "tpu.queuedResources.delete") for method in methods}
    assert needed <= set(CONTROLLER_PERMISSIONS)
    assert all("force" not in path for _, path in state.requests)
