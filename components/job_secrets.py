"""The values of a job's `{secret: KEY}` environment, from the Pulumi secret config
`trainstack:secrets` (`clouds.job_secrets`): each one a secret Output, never plain text.

The engine decrypts the stack's `secure:` values for the program; `trainstack plan`, which
cannot, hands the program a placeholder in their place (`trainstack.plan.runner`). Each cloud's
`components/<cloud>/secrets.py` copies these values into its secret store.
"""

from __future__ import annotations

from typing import Any

import pulumi

from clouds.contract import CONFIG_NAMESPACE
from clouds.job_secrets import SECRETS_KEY, missing_secret, secret_refs


def secret_inputs(job: Any) -> dict[str, pulumi.Output[str]]:
    """Environment name -> its `trainstack:secrets` value as a secret Output, for every
    `{secret: KEY}` of `job` (None: none).

    Raises:
        ValueError: a key `trainstack:secrets` does not hold (one line with the fix).
    """
    wanted = {name: ref.secret for name, ref in secret_refs(job).items() if ref.secret is not None}
    if not wanted:
        return {}
    config = pulumi.Config(CONFIG_NAMESPACE).get_secret_object(SECRETS_KEY)
    if config is None:
        raise ValueError(missing_secret(job, (), pulumi.get_stack()))

    def pick(values: Any, key: str) -> str:
        if not isinstance(values, dict) or key not in values:
            raise ValueError(missing_secret(job, values if isinstance(values, dict) else (), pulumi.get_stack()))
        return str(values[key])

    def value_of(key: str) -> pulumi.Output[str]:
        return pulumi.Output.secret(config.apply(lambda values: pick(values, key)))

    return {name: value_of(key) for name, key in wanted.items()}
