"""Azure: what trainstack knows about it is data, in `cloud.yaml` beside this file
(`clouds.cloud_file`); its pure rules (validation, sizing, facts, mock answers,
replace-on-change inputs) sit beside it."""

from clouds.cloud_file import read_cloud

CLOUD = read_cloud(__file__)
