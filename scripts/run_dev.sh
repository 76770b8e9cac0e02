#!/usr/bin/env bash
# `make run`: the task worker beside Django's development server; Ctrl-C stops both.
#
#   scripts/run_dev.sh PYTHON HOST:PORT
#
# The worker (django-tasks-db's db_worker) makes every PDF not already kept outside the request, as
# deploy/systemd/muster-worker.service does in production. It reloads on code changes, like
# runserver (its --reload follows DEBUG).
set -u
PY=$1
ADDR=$2
"$PY" manage.py db_worker --queue-name '*' -v 1 &
worker=$!
# Ctrl-C reaches both (one process group); on any other exit of runserver the worker is stopped here.
trap 'kill "$worker" 2>/dev/null; wait "$worker" 2>/dev/null' EXIT
"$PY" manage.py runserver "$ADDR"
