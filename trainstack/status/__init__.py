"""`trainstack status`: nodes running vs asked per node group, and the cloud's latest capacity error."""
