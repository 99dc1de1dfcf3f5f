"""Baidu AI Cloud GPU cluster component (`trainstack:baiducloud:GpuCluster`) and the Pulumi
dynamic providers over bce-python-sdk it is built from."""
