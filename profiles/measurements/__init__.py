"""Benchmark results (one versioned JSON schema) and the measurement store the resolver reads."""
