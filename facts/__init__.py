"""Sourced hardware, network, quota and region facts, shared by the decision side and the Pulumi side."""
