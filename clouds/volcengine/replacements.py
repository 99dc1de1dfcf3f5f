"""Volcengine's replace-on-change inputs are data, with their sources: `replacements.yaml` beside
this file (read by `clouds.cloud_file.read_replacements`; format and rule N: `trainstack.review.replacements`)."""

from clouds.cloud_file import read_replacements

REPLACEMENTS = read_replacements(__file__)
