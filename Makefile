PYTHON ?= python

.PHONY: install test lint openapi bench serve screenshots

install:
	$(PYTHON) -m pip install -e '.[test]'

test:
	$(PYTHON) -m pytest

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m mypy

openapi:
	$(PYTHON) -m api.http.openapi_check --write

bench:
	$(PYTHON) -m engine.bench

serve:
	sixtysix serve

screenshots:
	$(PYTHON) -m tests.web.screenshots --out docs
