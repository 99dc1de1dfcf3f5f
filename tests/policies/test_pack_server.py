"""The policy pack as the Pulumi CLI runs it: `policies/__main__.py` serves the analyzer gRPC
protocol on loopback; the test speaks that protocol as the engine does during a preview."""

import subprocess
import sys
import threading
from pathlib import Path

import grpc
import pytest
from google.protobuf import empty_pb2, struct_pb2
from pulumi.runtime.proto import analyzer_pb2, analyzer_pb2_grpc

from policies import RULES

PACK = Path(__file__).resolve().parents[2] / "policies"
URN = "urn:pulumi:dev::trainstack::trainstack:aws:GpuCluster$aws:ec2/launchTemplate:LaunchTemplate::c-lt"
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "aws"}


@pytest.fixture(scope="module")
def analyzer():
    """Start the pack like the CLI (python __main__.py in policies/); it prints its port."""
    process = subprocess.Popen(
        [sys.executable, "__main__.py"], cwd=PACK, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    port: list[str] = []
    reader = threading.Thread(target=lambda: port.append(process.stdout.readline().strip()), daemon=True)
    reader.start()
    reader.join(timeout=60)
    try:
        assert port and port[0].isdigit(), process.stderr.read() if process.poll() is not None else "no port"
        channel = grpc.insecure_channel(f"127.0.0.1:{port[0]}")
        yield analyzer_pb2_grpc.AnalyzerStub(channel)
        channel.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def struct(values):
    message = struct_pb2.Struct()
    message.update(values)
    return message


def test_pack_announces_every_rule(analyzer):
    info = analyzer.GetAnalyzerInfo(empty_pb2.Empty())
    assert info.name == "trainstack"
    assert {p.name for p in info.policies} == set(RULES)


def test_pack_reports_a_violation_on_a_previewed_resource(analyzer):
    props = {
        "metadataOptions": {"httpTokens": "optional"},
        "tags": TAGS,
        "blockDeviceMappings": [{"ebs": {"encrypted": "true"}}],
    }
    request = analyzer_pb2.AnalyzeRequest(
        type="aws:ec2/launchTemplate:LaunchTemplate",
        properties=struct(props),
        urn=URN,
        name="c-lt",
        options=analyzer_pb2.AnalyzerResourceOptions(),
    )
    diagnostics = analyzer.Analyze(request).diagnostics
    assert [d.policyName for d in diagnostics] == ["imdsv2-required"]
    assert diagnostics[0].enforcementLevel == analyzer_pb2.MANDATORY


def test_pack_sees_protect_from_the_resource_options(analyzer):
    def analyze(protect):
        request = analyzer_pb2.AnalyzeRequest(
            type="aws:fsx/lustreFileSystem:LustreFileSystem",
            properties=struct({"tags": TAGS}),
            urn=URN,
            name="c-fsx",
            options=analyzer_pb2.AnalyzerResourceOptions(protect=protect),
        )
        return [d.policyName for d in analyzer.Analyze(request).diagnostics]

    assert analyze(protect=True) == []
    assert analyze(protect=False) == ["stateful-protected"]
