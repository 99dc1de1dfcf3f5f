"""AWS Secrets Manager from a node: `aws secretsmanager get-secret-value --secret-id ID
--region R --output json` through the AWS CLI the Deep Learning AMI ships, with the instance
profile's credentials; its answer is the documented `GetSecretValue` response (`SecretString`)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Mapping

from nodeagent.secrets import SecretError


def _aws_cli(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise SecretError(lines[-1][:300] if lines else "aws failed")
    return done.stdout


def read(where: Mapping[str, str], run: Callable[[list[str]], str] = _aws_cli) -> str:
    """One secret's `SecretString`."""
    argv = ["aws", "secretsmanager", "get-secret-value", "--secret-id", where["id"]]
    answer = json.loads(run([*argv, "--region", where["region"], "--output", "json"]))
    if "SecretString" not in answer:
        raise SecretError("the secret holds binary data, not text (SecretString)")
    return str(answer["SecretString"])
