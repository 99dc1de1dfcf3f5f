"""Reviewing a stack change: two plans diffed, replacements and node effects, another git revision's program, the PR comment."""
