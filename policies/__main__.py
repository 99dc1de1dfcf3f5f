"""The trainstack policy pack: `pulumi preview --policy-pack policies` runs this file.

The rules live in `policies.rules` and `policies.stack_rules` (plain functions, also run by
`trainstack plan --markdown` and the tests); `policies.pack` adapts them to pulumi-policy.
"""

import sys
from pathlib import Path

# The CLI runs this file from inside policies/; the project root makes `policies` importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pulumi_policy import EnforcementLevel, PolicyPack  # noqa: E402

from policies.pack import PACK_NAME, policies  # noqa: E402

PolicyPack(name=PACK_NAME, policies=policies(), enforcement_level=EnforcementLevel.MANDATORY)
