"""Per-cloud knowledge below both the decision side and the Pulumi side: the cluster contract, stack-config parsing and each cloud's pure rules."""
