"""Benchmark results (one versioned JSON schema) and the measurement store the resolver reads."""


class StoreError(ValueError):
    """A results file that cannot be read or imported; the message is one line."""
