"""The data path: the workload's `data:` section, the file system that serves it and what both cost.

One entry for costing: `row.data_row(spec, offering, hours, usd_per_hour, usd_per_cny)`, which
`profiles.costing` calls once per purchase option of a row, returns the row's `DataRow` (hours
with I/O waits and staging, the file system bought, its tier, the bucket's request charges,
the notes). Imports go one way, from that entry down:

    row.data_row -> link_sizing.for_link (a data-sized file system raised to what its bucket
                    link can use)
                 -> terms.at_tier, per tier and size compared (what the cloud creates, its price,
                    what it delivers; terms.tier_for: the tier a row starts from)
                    -> sizing (capacity, throughput, staging: `DataPath`)
    spec         (the `data:` section as `DataSpec`, read by the workload spec) -> sizing

`profiles.matching` asks `link_sizing.for_link` and `terms.tier_for` whether a cloud can create
and link the file system at all, before anything is costed.
"""
