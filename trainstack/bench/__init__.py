"""The benchmark kit: raw-output parsers, the kit renderer, the training benchmark, reports."""
