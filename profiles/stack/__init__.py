"""Stack files (`stacks/Pulumi.<name>.yaml`): written from a resolution, read, checked and priced.

Entry points (import the module you need; this package imports nothing, so reading a stack
never loads the resolver):
- `file`: the one reader/validator/writer of stack files (`read_cluster`, `write_stack`,
  `stack_path`, `StackFileError`), for `plan`, `check` and the Pulumi program;
- `writer`: a `Resolution` as a stack file (`render_stack`, `cluster_config`), with what a
  rewrite keeps of the old file (`carry_over`: `keep_cluster_settings`, `keep_zone`, `kept_settings`);
- `check`: a stack's cluster against what the catalog knows of its cloud (`catalog_problems`);
- `price`: what a stack's cluster costs now, from the catalog (`price_stack`, `StackPrice`).

Imports go one way: `writer` -> `carry_over` -> `file` -> `document` (the file parsed, its
checksum: no validation) and `file` -> `check`; `price` stands alone.
"""
