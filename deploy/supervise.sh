#!/usr/bin/env bash
# Run a command and start it again whenever it exits, until this script is stopped (TERM or INT,
# passed on to the command, which then finishes what it has in hand). deploy/stack.sh and
# scripts/run_dev.sh run the task worker under it, as systemd's Restart=always does in production:
# a worker that exits (a crash, an error it does not wait out) is back within SUPERVISE_PAUSE.
#
#   deploy/supervise.sh NAME COMMAND [ARGS...]
#
# Environment: SUPERVISE_PAUSE (seconds between an exit and the next start, default 2).
set -u
name=$1
shift
pause=${SUPERVISE_PAUSE:-2}
child=""
stopping=0

stop() {
  stopping=1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}
trap stop TERM INT

while [ "$stopping" = 0 ]; do
  "$@" &
  child=$!
  # `wait` returns early when a signal arrives; wait again for the command to finish its work.
  wait "$child"
  status=$?
  while kill -0 "$child" 2>/dev/null; do wait "$child"; status=$?; done
  [ "$stopping" = 1 ] && break
  echo "supervise: $name exited with status $status; starting it again in $pause s" >&2
  sleep "$pause" &
  wait $! || true
done
exit 0
