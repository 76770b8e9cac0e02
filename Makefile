# Muster: `make run` serves the app on http://127.0.0.1:8000, `make test` runs the whole suite.
SHELL := /bin/bash
.DEFAULT_GOAL := run

VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1

# A Python >= 3.12: first on PATH, then through pyenv (whose shims refuse unselected versions,
# so its version folders are tried directly).
PYTHON ?= $(shell for c in python3.13 python3.12 python3; do \
	  p=$$(command -v $$c 2>/dev/null) || continue; \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; exit 0; }; \
	done; \
	root=$$(pyenv root 2>/dev/null || echo $$HOME/.pyenv); \
	for p in $$(ls -d $$root/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; exit 0; }; \
	done)

.PHONY: run test install install-dev data messages bench check-deploy lint format clean playsheet-png

$(VENV)/.base-installed: pyproject.toml
	@if [ -z "$(PYTHON)" ]; then echo "Muster needs Python 3.12 or newer: none was found on PATH or in pyenv. Install one (e.g. 'pyenv install 3.13') and run make again." >&2; exit 1; fi
	@test -x $(PY) || { echo "Creating $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.dev-installed: $(VENV)/.base-installed
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

install: $(VENV)/.base-installed
install-dev: $(VENV)/.dev-installed

messages: install
	$(PY) manage.py compilemessages --ignore=.venv -v 0

data: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py load_reference_data

run: data
	@echo "Muster is starting on http://$(HOST):$(PORT)/"
	$(PY) manage.py runserver $(HOST):$(PORT)

test: install-dev messages
	$(PY) -m pytest
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install-dev data
	$(PY) bench/run_all.py

check-deploy: install
	DEBUG=0 SECRET_KEY=$$(head -c 48 /dev/urandom | base64) ALLOWED_HOSTS=muster.example.org \
	  EMAIL_HOST=smtp.example.org DEFAULT_FROM_EMAIL=muster@example.org REDIS_URL=redis://127.0.0.1:6379/0 \
	  $(PY) manage.py check --deploy --fail-level WARNING

# Render every PDF kind to PNG pages (pdftoppm) so a person can look at them.
playsheet-png: data
	scripts/playsheet_png.sh

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 .pytest_cache .ruff_cache
