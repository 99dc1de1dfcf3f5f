"""Preflight (`trainstack check -s NAME`): can a stack's capacity be had, before `pulumi up`?

Entry points (import the module you need; this package imports nothing, so boto3 and the
stack pricing load only for `check`):
- `check`: `preflight(...)` runs the checks and returns `Finding`s; `read_cluster`,
  `validation_finding`, `PreflightError`;
- `guidance`: the quota advice for clouds without a live check (Azure, GCP, the Chinese clouds);
- `aws`: the live AWS checks (`Cloud.live_check` of AWS), with `aws_reservation` for held
  capacity and `aws_api` for the shared boto3 plumbing (boto3 imported lazily).
"""
