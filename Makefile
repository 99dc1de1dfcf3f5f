# The two set-up commands of the README. Each creates .venv on first use and reuses it after.
VENV ?= .venv
PYTHON ?= python3
STAMP := $(VENV)/.installed

.PHONY: demo test bench catalog

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	# compat mode: a plain path entry instead of an import-hook finder (~17 ms off every command)
	$(VENV)/bin/pip install --quiet -e '.[test,torch,china]' --config-settings editable_mode=compat
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/trainstack resolve profiles/workloads/training-a100.yaml
	$(VENV)/bin/trainstack plan -s training-a100

test: $(STAMP)
	$(VENV)/bin/python -m pytest -n auto

bench: $(STAMP)
	$(VENV)/bin/python bench/resolve.py

catalog: $(STAMP)
	$(VENV)/bin/python -m profiles.catalog.build $(ARGS)
