"""Tencent Cloud GPU cluster component (`trainstack:tencentcloud:GpuCluster`) and its pure
helpers. Importing this package loads nothing."""
