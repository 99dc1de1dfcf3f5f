"""The data path: the workload's `data:` section, the file system that serves it and what both cost.

Entry points (import the module you need):
- `spec`: the `data:` section as `DataSpec` and the file system it sizes (`sized_file_system`);
- `sizing`: capacity, throughput and staging of a job's data path (`size_data_path`, `DataPath`);
- `link_sizing`: a data-sized file system raised to the smallest its bucket link can use;
- `row`: the data part of one resolve row (`data_row`): I/O hours, request charges, tier.
"""
