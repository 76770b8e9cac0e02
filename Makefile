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

.PHONY: run test test-fast test-browser install install-dev data messages catalogues bench check-deploy lint format clean playsheet-png \
	system-deps-run system-deps-test loadtest loadtest-events smoke

$(VENV)/.base-installed: pyproject.toml
	@if [ -z "$(PYTHON)" ]; then echo "Muster needs Python 3.12 or newer: none was found on PATH or in pyenv. Install one (e.g. 'pyenv install 3.13') and run make again." >&2; exit 1; fi
	@test -x $(PY) || { echo "Creating $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	@echo "Installing Muster's Python packages into $(VENV) (a minute or two the first time; scripts/pip_progress.py says what pip is doing)"
	@$(PY) scripts/pip_progress.py --upgrade pip
	@$(PY) scripts/pip_progress.py -e .
	@touch $@

$(VENV)/.dev-installed: $(VENV)/.base-installed
	@echo "Installing the test and lint tools into $(VENV)"
	@$(PY) scripts/pip_progress.py -e '.[dev]'
	@touch $@

install: $(VENV)/.base-installed
install-dev: $(VENV)/.dev-installed

messages: install
	@echo "Compiling the translations (French, German, Polish, Spanish, Italian)"
	@$(PY) manage.py compilemessages --ignore=.venv -v 0

# After adding or changing English UI strings: every language's catalogues get the new msgids
# (msgstr empty until translated; tests/test_translation_coverage.py counts them).
catalogues: install
	@$(PY) manage.py makemessages -l fr -l de -l pl -l es -l it --ignore=.venv -v 0

data: install messages
	@echo "Creating or updating the database"
	@$(PY) manage.py migrate --noinput -v 0
	@echo "Loading the built-in rules and armies (only what differs is written)"
	@$(PY) manage.py load_reference_data

# Debian packages (WeasyPrint's Pango, gettext; Chromium and poppler for the tests): installed
# when run as root, else make stops at once with the apt-get command to run.
system-deps-run:
	@scripts/system-deps.sh run

system-deps-test:
	@scripts/system-deps.sh test

# The development server and the task worker (big lists' PDFs) together; Ctrl-C stops both.
run: system-deps-run data
	@echo "Muster is starting on http://$(HOST):$(PORT)/ (with its task worker)"
	scripts/run_dev.sh $(PY) $(HOST):$(PORT)

# The suite runs in one worker per core (pytest-xdist; each worker has its own test database, live
# server and browser); TEST_WORKERS=0 runs it in this process, e.g. to step through with pdb.
# A test file goes to one worker whole: the built-in data a file loads once (tests/builtin_data.py)
# is then loaded once, not once per worker.
TEST_WORKERS ?= auto
XDIST = -n $(TEST_WORKERS) --dist loadfile

test: system-deps-test install-dev messages
	$(PY) -m pytest $(XDIST)
	node --test tests/js/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The fast tier: everything but the browser tests (views through the test client, rules, importers,
# PDFs), for the change-test-change loop; `make test` stays the whole suite, as CI runs it.
test-fast: install-dev messages
	$(PY) -m pytest $(XDIST) -m "not browser" -q
	node --test tests/js/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The browser tests alone (Playwright driving Debian's Chromium).
test-browser: system-deps-test install-dev messages
	$(PY) -m pytest $(XDIST) -m browser

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
	  TRUSTED_PROXIES=127.0.0.1,::1 \
	  $(PY) manage.py check --deploy --fail-level WARNING

# Render every PDF kind to PNG pages (pdftoppm) so a person can look at them.
playsheet-png: data
	scripts/playsheet_png.sh

# The deployment (deploy/: nginx + two gunicorn app servers + Redis, on PostgreSQL), started as
# your own processes: `make smoke` checks it through nginx, `make loadtest` measures it.
# STACK_DATABASE_URL names the PostgreSQL database to use (created if missing).
STACK_DATABASE_URL ?= postgres://muster:muster@127.0.0.1:5432/muster_stack
LOADTEST_PLAYERS ?= 8
LOADTEST_SECONDS ?= 60
# steady (the load alone), kill (a gunicorn worker killed every 2 s), redis (both Redis stopped):
# LOADTEST_SECONDS is split evenly between them.
LOADTEST_PHASES ?= steady,kill,redis
# Tournament day (deploy/loadtest_events.py): EVENTS_PLAYERS players seeded with round 1 published,
# EVENTS_PHONES phones polling every EVENTS_POLL s, EVENTS_QUIET s of phones alone, then EVENTS_SECONDS
# s in which the players enter and confirm every result within EVENTS_RESULTS_WITHIN s.
# A development run: make loadtest-events EVENTS_PLAYERS=40 EVENTS_PHONES=100 EVENTS_SECONDS=30 \
#   EVENTS_RESULTS_WITHIN=25 EVENTS_QUIET=10
EVENTS_PLAYERS ?= 500
EVENTS_PHONES ?= 2000
EVENTS_POLL ?= 20
EVENTS_QUIET ?= 40
EVENTS_SECONDS ?= 150
EVENTS_RESULTS_WITHIN ?= 120
EVENTS_CONNECTIONS ?= 200

smoke: install
	@scripts/system-deps.sh stack
	$(PY) deploy/createdb.py "$(STACK_DATABASE_URL)"
	DATABASE_URL="$(STACK_DATABASE_URL)" deploy/stack.sh start >/dev/null
	$(PY) deploy/smoke.py https://127.0.0.1:$${STACK_PORT:-8443} \
	  $$(for p in $${STACK_APP_PORTS:-8101 8102}; do echo 127.0.0.1:$$p; done); status=$$?; deploy/stack.sh stop; exit $$status

loadtest: install
	@scripts/system-deps.sh stack
	$(PY) deploy/createdb.py "$(STACK_DATABASE_URL)"
	DATABASE_URL="$(STACK_DATABASE_URL)" RATELIMIT_ENABLE=0 deploy/stack.sh start >/dev/null
	$(PY) deploy/loadtest.py https://127.0.0.1:$${STACK_PORT:-8443} --players $(LOADTEST_PLAYERS) \
	  --seconds $(LOADTEST_SECONDS) --phases $(LOADTEST_PHASES); status=$$?; deploy/stack.sh stop; exit $$status

loadtest-events: install
	@scripts/system-deps.sh stack
	$(PY) deploy/createdb.py "$(STACK_DATABASE_URL)"
	DATABASE_URL="$(STACK_DATABASE_URL)" RATELIMIT_ENABLE=0 deploy/stack.sh start >/dev/null
	slug=$$(DATABASE_URL="$(STACK_DATABASE_URL)" $(PY) manage.py seed_event --players $(EVENTS_PLAYERS) --rounds 0 \
	  --open-round --password tournament-day-42 --seed $$(date +%s) | tail -n 1) && \
	DATABASE_URL="$(STACK_DATABASE_URL)" $(PY) deploy/loadtest_events.py https://127.0.0.1:$${STACK_PORT:-8443} \
	  --slug "$$slug" --players $(EVENTS_PLAYERS) --phones $(EVENTS_PHONES) --poll $(EVENTS_POLL) \
	  --quiet $(EVENTS_QUIET) --seconds $(EVENTS_SECONDS) --results-within $(EVENTS_RESULTS_WITHIN) \
	  --connections $(EVENTS_CONNECTIONS); status=$$?; deploy/stack.sh stop; exit $$status

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 .pytest_cache .ruff_cache
