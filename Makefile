# The two set-up commands of the README. Each creates .venv on first use and reuses it after.
# `make demo` installs only what the demo needs (the AWS provider: `.[aws]`); `make test`
# installs every cloud's SDKs and the test tools (`.[all,test,torch]`).
VENV ?= .venv
PYTHON ?= python3
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
# The installer: uv (https://docs.astral.sh/uv/) when it is on PATH, which resolves and installs
# the same requirements several times faster than pip; pip otherwise. `make test UV=` forces pip.
UV ?= $(shell command -v uv 2>/dev/null)
ifeq ($(strip $(UV)),)
INSTALL = $(VENV)/bin/pip install --quiet
else
# --compile-bytecode: as pip does, so the first run does not compile every module it imports
INSTALL = $(UV) pip install --quiet --compile-bytecode --python $(VENV)/bin/python
endif
# PyTorch is always installed by pip, first, at the [torch] extra's pin: pip honours the machine's
# own pip configuration (a local CPU build, a constraint, an index); uv reads none of it and would
# fetch a CUDA build of several GB. Installed, it satisfies the pin, so uv keeps it.
TORCH_PIN = $(shell sed -n 's/.*"\(torch==[^"]*\)".*/\1/p' pyproject.toml)

# The project's own bytecode, compiled once at install as the installers compile the packages':
# the project's modules, then the test modules as pytest rewrites them (its `--collect-only`
# writes them). Without it the suite's first run compiles them in every test process at once
# (about 20 s of CPU over both of `-n 2`'s workers and their children); a syntax or collection
# error is left for the suite to report.
PRECOMPILE = { $(VENV)/bin/python -m compileall -q -j 0 -x '(^|/)(\.venv|\.git|mutants)(/|$$)' . || true; } && \
	{ $(VENV)/bin/python -m pytest --collect-only -q -p no:cacheprovider > /dev/null || true; }

.PHONY: demo test lint bench catalog mutate mutate-check

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

$(DEMO_STAMP): pyproject.toml | $(VENV)/bin/python
	# compat mode: a plain path entry instead of an import-hook finder (~17 ms off every command)
	$(INSTALL) -e '.[aws]' -C editable_mode=compat
	touch $(DEMO_STAMP)

$(TEST_STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet '$(TORCH_PIN)'
	$(INSTALL) -e '.[all,test,torch]' -C editable_mode=compat
	$(PRECOMPILE)
	touch $(TEST_STAMP) $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(VENV)/bin/trainstack resolve profiles/workloads/training-a100.yaml
	$(VENV)/bin/trainstack plan -s training-a100

test: $(TEST_STAMP)
	$(VENV)/bin/python -m pytest -n auto

# ruff (lint and format) over the tree, mypy over facts/, clouds/, profiles/ and components/.
lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

bench: $(DEMO_STAMP)
	$(VENV)/bin/python bench/resolve.py
	$(VENV)/bin/python bench/plan.py

catalog: $(DEMO_STAMP)
	$(VENV)/bin/python -m profiles.catalog.build $(ARGS)

# Mutation testing of profiles/cost/ and the resolver (config in pyproject's [tool.mutmut]);
# prints the share of mutants the tests kill (survivors explained in tests/mutation_equivalents.md).
# Slow (about 15 min on 2 cores): run it by hand, not in CI. A fresh mutants/ each time, so no
# result is reused from older tests. `mutate-check` (CI, .ci/run) runs only mutmut's clean run:
# the selected tests from a copy of what mutmut copies (tests/mutation_setup.py), about 30 s.
mutate-check: $(TEST_STAMP)
	$(VENV)/bin/python tests/mutation_setup.py

mutate: mutate-check
	rm -rf mutants
	$(VENV)/bin/mutmut run --max-children 2 || true
	$(VENV)/bin/mutmut export-cicd-stats
	$(VENV)/bin/python tests/mutation_score.py mutants/mutmut-cicd-stats.json
