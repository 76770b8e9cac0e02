#!/usr/bin/env bash
# `make run`: the task worker beside Django's development server; Ctrl-C stops both.
#
#   scripts/run_dev.sh PYTHON HOST:PORT
#
# The worker (Muster's db_worker) makes every PDF not already kept outside the request, as
# deploy/systemd/muster-worker.service does in production. It reloads on code changes, like
# runserver (its --reload follows DEBUG), waits out a database outage, and deploy/supervise.sh
# starts it again should it exit.
set -u
PY=$1
ADDR=$2
"$(dirname "$0")/../deploy/supervise.sh" worker "$PY" manage.py db_worker --queue-name '*' -v 1 &
worker=$!
# Ctrl-C reaches both (one process group); on any other exit of runserver the worker is stopped here.
trap 'kill "$worker" 2>/dev/null; wait "$worker" 2>/dev/null' EXIT
"$PY" manage.py runserver "$ADDR"
