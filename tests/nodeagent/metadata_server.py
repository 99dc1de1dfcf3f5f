"""A loopback metadata service answering in each cloud's documented notice format.

The payloads are written from the clouds' documentation:
- AWS "Spot Instance interruption notices" and "rebalance recommendations" (IMDSv2: token PUT,
  404 until a notice, then `{"action": "terminate", "time": "2017-09-18T08:22:00Z"}` /
  `{"noticeTime": "2020-10-27T08:22:00Z"}`);
- Azure "Scheduled Events for Linux VMs" (api-version 2020-07-01, `Metadata: true`, the
  `DocumentIncarnation`/`Events` document, StartRequests acknowledgement);
- GCP "Detect if a VM was preempted" / "maintenance events" (`Metadata-Flavor: Google`,
  `TRUE`/`FALSE`, `TERMINATE_ON_HOST_MAINTENANCE`, ETag and wait_for_change).

GCP guest attributes ("Setting and querying guest attributes": `PUT
instance/guest-attributes/NAMESPACE/KEY` with the value as the body) are kept in
`guest_attributes`.

The head's job channel (`nodeagent.publisher`) in each cloud's documented place: AWS
"View tags for your EC2 instances using instance metadata" (`tags/instance` lists the keys one
a line, `tags/instance/KEY` is the value), GCP custom metadata
(`instance/attributes/trainstack-job`), Azure "User Data for Azure Virtual Machine"
(`compute/userData?format=text`, base64).

Run as a script (`python metadata_server.py CLOUD PORT TRIGGER_FILE`) it serves on 127.0.0.1,
serves the text of TRIGGER_FILE.channel (when it exists) as the job channel,
turns the notice on when TRIGGER_FILE exists (AWS's rebalance recommendation when
TRIGGER_FILE.rebalance exists) and appends each Azure acknowledgement it
receives to TRIGGER_FILE.acks (one JSON line: the time and the body).
"""

from __future__ import annotations

import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

AWS_TOKEN = "AQAEAFakeTokenForTests=="
AZURE_VM = "trainstack-node_1"
AZURE_EVENT_ID = "602d9444-d2cd-49c7-8624-8643e7171297"  # this VM's Preempt event


class MetadataState:
    """What the fake service answers: notices on or off, and what it received."""

    def __init__(self, cloud: str, trigger: Path | None = None, ack_log: Path | None = None) -> None:
        self.cloud, self.trigger, self.ack_log = cloud, trigger, ack_log
        self.rebalance_trigger = trigger.with_name(trigger.name + ".rebalance") if trigger else None
        self.spot = self.rebalance = self.preempt = self.maintenance = False
        self.acks: list[dict] = []
        self.channel: str | None = None  # the job channel's text (`nodeagent.publisher.encode`)
        self.channel_file = trigger.with_name(trigger.name + ".channel") if trigger else None
        self.requests: list[tuple[str, str, dict]] = []
        self.guest_attributes: dict[str, str] = {}  # GCP: what the VM wrote, "namespace/key" -> value
        self.changed = threading.Condition()

    def set(self, **flags: bool) -> None:
        """Turn notices on or off (`spot=True`, ...) and wake waiting GCP requests."""
        with self.changed:
            for key, value in flags.items():
                setattr(self, key, value)
            self.changed.notify_all()

    def channel_text(self) -> str | None:
        if self.channel is not None:
            return self.channel
        if self.channel_file is not None and self.channel_file.exists():
            return self.channel_file.read_text()
        return None

    def aws_tags(self) -> dict[str, str]:
        """The head's tags as EC2 would hold them: Name and the channel in 256-character pieces."""
        text = self.channel_text()
        pieces = [text[i : i + 256] for i in range(0, len(text), 256)] if text else []
        return {"Name": "c-head", **{f"trainstack:job:{i:02d}": p for i, p in enumerate(pieces)}}

    def notice_on(self) -> bool:
        return self.trigger is not None and self.trigger.exists()


def _azure_document(state: MetadataState) -> dict:
    events = []
    if state.preempt or state.notice_on():
        events.append(
            {
                "EventId": AZURE_EVENT_ID,
                "EventType": "Preempt",
                "ResourceType": "VirtualMachine",
                "Resources": [AZURE_VM],
                "EventStatus": "Scheduled",
                "NotBefore": "Mon, 19 Sep 2016 18:29:47 GMT",
                "Description": "",
                "EventSource": "Platform",
                "DurationInSeconds": -1,
            }
        )
    events.append(
        {  # another VM's event in the same scale set: not ours
            "EventId": "5dd0f4d8-1f52-4c4c-9d2a-6f2c8e6f9a11",
            "EventType": "Preempt",
            "ResourceType": "VirtualMachine",
            "Resources": ["trainstack-node_7"],
            "EventStatus": "Scheduled",
            "NotBefore": "Mon, 19 Sep 2016 18:29:47 GMT",
            "Description": "",
            "EventSource": "Platform",
            "DurationInSeconds": -1,
        }
    )
    return {"DocumentIncarnation": 2 if events else 1, "Events": events}


def make_handler(state: MetadataState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _send(self, status: int, body: str = "", headers: dict | None = None) -> None:
            data = body.encode()
            self.send_response(status)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_PUT(self) -> None:
            state.requests.append(("PUT", self.path, self.headers))
            if self.path == "/latest/api/token" and self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
                return self._send(200, AWS_TOKEN)
            attribute = self.path.removeprefix("/computeMetadata/v1/instance/guest-attributes/")
            if state.cloud == "gcp" and attribute != self.path and self.headers.get("Metadata-Flavor") == "Google":
                # GCP "Setting and querying guest attributes": PUT the value to NAMESPACE/KEY
                length = int(self.headers.get("Content-Length", 0))
                state.guest_attributes[attribute] = self.rfile.read(length).decode()
                return self._send(200)
            self._send(400)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length).decode()
            state.requests.append(("POST", self.path, self.headers))
            if self.path.startswith("/metadata/scheduledevents") and self.headers.get("Metadata") == "true":
                state.acks.append(json.loads(body))
                if state.ack_log is not None:
                    with state.ack_log.open("a") as log:
                        log.write(json.dumps({"time": time.time(), "body": state.acks[-1]}) + "\n")
                return self._send(200)
            self._send(400)

        def do_GET(self) -> None:
            state.requests.append(("GET", self.path, self.headers))
            url = urlparse(self.path)
            if state.cloud == "aws":
                return self._aws(url.path)
            if state.cloud == "azure":
                return self._azure(url.path, parse_qs(url.query))
            return self._gcp(url.path, parse_qs(url.query))

        def _aws(self, path: str) -> None:
            if self.headers.get("X-aws-ec2-metadata-token") != AWS_TOKEN:
                return self._send(401)
            if path == "/latest/meta-data/spot/instance-action" and (state.spot or state.notice_on()):
                return self._send(
                    200,
                    json.dumps({"action": "terminate", "time": "2017-09-18T08:22:00Z"}),
                    {"Content-Type": "text/plain"},
                )
            rebalance = state.rebalance or (state.rebalance_trigger is not None and state.rebalance_trigger.exists())
            if path == "/latest/meta-data/events/recommendations/rebalance" and rebalance:
                return self._send(200, json.dumps({"noticeTime": "2020-10-27T08:22:00Z"}))
            tags = state.aws_tags()
            if path == "/latest/meta-data/tags/instance":
                return self._send(200, "\n".join(tags))
            if path.startswith("/latest/meta-data/tags/instance/") and path.rsplit("/", 1)[1] in tags:
                return self._send(200, tags[path.rsplit("/", 1)[1]])
            self._send(404, '<?xml version="1.0"?><title>404 - Not Found</title>')

        def _azure(self, path: str, query: dict) -> None:
            if self.headers.get("Metadata") != "true":
                return self._send(400, json.dumps({"error": "Bad request. Required metadata header not specified"}))
            if path == "/metadata/instance/compute/name" and query.get("format") == ["text"]:
                return self._send(200, AZURE_VM)
            if path == "/metadata/instance/compute/userData" and query.get("format") == ["text"]:
                text = state.channel_text()  # IMDS returns the user data as given: base64
                return self._send(200, base64.b64encode(text.encode()).decode() if text else "")
            if path == "/metadata/scheduledevents" and query.get("api-version") == ["2020-07-01"]:
                return self._send(200, json.dumps(_azure_document(state)), {"Content-Type": "application/json"})
            self._send(404)

        def _gcp(self, path: str, query: dict) -> None:
            if self.headers.get("Metadata-Flavor") != "Google":
                return self._send(403, "Missing Metadata-Flavor:Google header.")
            values = {
                "/computeMetadata/v1/instance/preempted": "TRUE" if state.preempt or state.notice_on() else "FALSE",
                "/computeMetadata/v1/instance/maintenance-event": "TERMINATE_ON_HOST_MAINTENANCE"
                if state.maintenance
                else "NONE",
            }
            if path == "/computeMetadata/v1/instance/attributes/trainstack-job" and state.channel_text():
                return self._send(200, state.channel_text() or "", {"Metadata-Flavor": "Google"})
            if path not in values:
                return self._send(404)
            value = values[path]
            if query.get("wait_for_change") == ["true"] and query.get("last_etag") == [f'"{value}"']:
                with state.changed:
                    state.changed.wait(float(query.get("timeout_sec", ["1"])[0]) if not state.trigger else 0.2)
                value = self._gcp_value(path)
            self._send(
                200, value, {"Metadata-Flavor": "Google", "ETag": f'"{value}"', "Content-Type": "application/text"}
            )

        def _gcp_value(self, path: str) -> str:
            if path.endswith("preempted"):
                return "TRUE" if state.preempt or state.notice_on() else "FALSE"
            return "TERMINATE_ON_HOST_MAINTENANCE" if state.maintenance else "NONE"

    return Handler


def serve(state: MetadataState, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """Start the service in a daemon thread; `server.server_address[1]` is its port."""
    server = ThreadingHTTPServer((host, port), make_handler(state))
    # polled every 5 ms, so `server.shutdown()` returns at once (it waits for the loop's next
    # poll: the default 0.5 s made every test using the service wait half a second in teardown,
    # 50 ms still ~25 ms a test; 200 wake-ups a second cost nothing over a test's few ms)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True).start()
    return server


if __name__ == "__main__":
    cloud, port, trigger = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    state = MetadataState(cloud, trigger, trigger.with_name(trigger.name + ".acks"))
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(state))
    server.serve_forever()
