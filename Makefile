PYTHON ?= python

.PHONY: install test lint openapi bench serve screenshots lock

install:
	$(PYTHON) -m pip install -c constraints.txt -e '.[test]'

# constraints.txt: every package that `pip install -e '.[test,plot]'` resolves in a fresh
# virtual environment (Python 3.11 on Linux), pinned. `pip freeze` of a fresh venv rather than
# pip-compile: it needs no tool beyond pip, and it records exactly what a newcomer's pip
# installs here (platform markers resolved), which is what CI must test.
lock:
	venv=$$(mktemp -d /tmp/sixtysix-lock.XXXXXX) && $(PYTHON) -m venv $$venv \
	  && $$venv/bin/python -m pip install -q -e '.[test,plot]' \
	  && { echo "# pinned by 'make lock' (pip freeze of a fresh venv, Python 3.11 on Linux):"; \
	       echo "# install with: pip install -c constraints.txt -e '.[test]'"; \
	       $$venv/bin/python -m pip freeze --exclude-editable; } > constraints.txt.new \
	  && mv constraints.txt.new constraints.txt; status=$$?; rm -rf $$venv; exit $$status

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
