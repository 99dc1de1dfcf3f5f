"""Choosing among the rows: the fewest nodes and sizes (`fewest`, `nodes`), price caveats (`price_checks`), clouds without rows (`gaps`)."""
