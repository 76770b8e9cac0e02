#!/usr/bin/env bash
# A production-like Muster on this machine, as your own processes: nginx (TLS, self-signed) in
# front of gunicorn, both from deploy/'s files, the task worker (manage.py db_worker), with Redis
# (Debian's redis-server) and the PostgreSQL database given by DATABASE_URL.
# For CI's smoke test and `make loadtest`.
#
#   deploy/stack.sh start    # prints the https URL; everything lives in $STACK_DIR
#   deploy/stack.sh stop
#
# Environment: DATABASE_URL (required, PostgreSQL), STACK_PORT (nginx, default 8443),
# STACK_APP_PORTS (gunicorn app servers, default "8101 8102": two servers sharing the
# database and Redis, as two machines would), STACK_REDIS_PORT (the cache's Redis, default 6390),
# STACK_RATELIMIT_REDIS_PORT (the rate-limit counters' Redis, default STACK_REDIS_PORT + 1),
# STACK_DIR (default /tmp/muster-stack-$STACK_PORT), WEB_CONCURRENCY (workers per app server, default 2),
# RATELIMIT_ENABLE (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PORT=${STACK_PORT:-8443}
APP_PORTS=${STACK_APP_PORTS:-"8101 8102"}
REDIS_PORT=${STACK_REDIS_PORT:-6390}
RATELIMIT_REDIS_PORT=${STACK_RATELIMIT_REDIS_PORT:-$((REDIS_PORT + 1))}
DIR=${STACK_DIR:-/tmp/muster-stack-$PORT}
PY=$ROOT/.venv/bin/python

stop() {
  for pidfile in "$DIR"/*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    # The worker (under its supervisor) finishes the task in hand: up to 30 s; the others 5 s.
    local tries=50
    [ "$(basename "$pidfile")" = worker.pid ] && tries=300
    for _ in $(seq 1 "$tries"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      pkill -9 -P "$pid" 2>/dev/null || true  # the supervised worker, then its supervisor
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

wait_for() {  # wait_for NAME COMMAND...: up to 30 s
  local name=$1; shift
  for _ in $(seq 1 60); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  echo "stack: $name did not start; logs in $DIR" >&2
  tail -n 30 "$DIR"/*.log >&2 || true
  return 1
}

start() {
  : "${DATABASE_URL:?DATABASE_URL must name a PostgreSQL database}"
  stop
  mkdir -p "$DIR/tmp" "$DIR/static"
  export DEBUG=0 SECRET_KEY=${SECRET_KEY:-$(head -c 48 /dev/urandom | base64 | tr -d '\n')}
  export ALLOWED_HOSTS=127.0.0.1,localhost CSRF_TRUSTED_ORIGINS=https://127.0.0.1:$PORT,https://localhost:$PORT
  export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0 RATELIMIT_REDIS_URL=redis://127.0.0.1:$RATELIMIT_REDIS_PORT/0
  export STATIC_ROOT=$DIR/static
  # nginx, on this machine, is the only proxy whose X-Forwarded-For Muster believes.
  export TRUSTED_PROXIES=127.0.0.1
  export EMAIL_BACKEND=django.core.mail.backends.locmem.EmailBackend
  export SECURE_HSTS_SECONDS=0 SECURE_HSTS_PRELOAD=0 LOG_LEVEL=${LOG_LEVEL:-WARNING}
  export RATELIMIT_ENABLE=${RATELIMIT_ENABLE:-1} WEB_CONCURRENCY=${WEB_CONCURRENCY:-2}

  # Two Redis, as docs/deploy.md deploys them: the cache, bounded and evicting the least
  # recently used keys when full; the rate-limit counters apart, so no flood of cached pages
  # can evict them (when full, the counter nearest its reset goes first).
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --maxmemory "${STACK_REDIS_MAXMEMORY:-64mb}" --maxmemory-policy allkeys-lru \
    --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --dir "$DIR"
  redis-server --port "$RATELIMIT_REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --maxmemory 16mb --maxmemory-policy volatile-ttl \
    --pidfile "$DIR/redis-ratelimit.pid" --logfile "$DIR/redis-ratelimit.log" --dir "$DIR"
  wait_for redis redis-cli -p "$REDIS_PORT" ping
  wait_for "rate-limit redis" redis-cli -p "$RATELIMIT_REDIS_PORT" ping

  "$PY" manage.py migrate --noinput -v 0
  "$PY" manage.py load_reference_data -v 0 >/dev/null
  "$PY" manage.py compilemessages --ignore=.venv -v 0
  "$PY" manage.py collectstatic --noinput -v 0

  # What deploy/smoke.py and deploy/loadtest.py need to reach the parts behind nginx.
  printf 'APP_PORTS="%s"\nREDIS_PORT=%s\nRATELIMIT_REDIS_PORT=%s\n' "$APP_PORTS" "$REDIS_PORT" "$RATELIMIT_REDIS_PORT" \
    >"$DIR/stack.env"

  local upstream=""
  for app_port in $APP_PORTS; do
    MUSTER_BIND=127.0.0.1:$app_port GUNICORN_CONTROL_SOCKET=$DIR/gunicorn-$app_port.ctl \
      "$ROOT/.venv/bin/gunicorn" -c deploy/gunicorn.conf.py armybuilder.wsgi \
      --pid "$DIR/gunicorn-$app_port.pid" --daemon \
      --access-logfile "$DIR/gunicorn-$app_port-access.log" --error-logfile "$DIR/gunicorn-$app_port.log"
    upstream+="    server 127.0.0.1:$app_port max_fails=0;"$'\n'
  done

  # The task worker (deploy/systemd/muster-worker.service): every PDF not already kept is made here, not
  # in gunicorn. Same environment as the app servers; its own process, stopped with the rest. It
  # waits out a database outage itself, and deploy/supervise.sh starts it again if it ever exits
  # (systemd's Restart=always in production); worker.pid is the supervisor's.
  nohup deploy/supervise.sh worker "$PY" manage.py db_worker --no-reload --queue-name '*' --interval 0.5 -v 1 \
    >"$DIR/worker.log" 2>&1 &
  echo $! >"$DIR/worker.pid"

  # nginx: deploy/'s location and proxy files as they are, the placeholders filled in, in a
  # main configuration of our own (TLS with a throw-away self-signed certificate).
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
    -keyout "$DIR/tls.key" -out "$DIR/tls.crt" >/dev/null 2>&1
  rm -rf "$DIR/cache"  # the shared pages of an earlier run (another database) are not this one's
  for file in muster-http.conf muster-locations.conf muster-shared-cache.conf muster-proxy.conf muster-tls.conf; do
    sed -e "s|@@STATIC_ROOT@@|$DIR/static|g" -e "s|@@UPSTREAM@@|muster_app|g" -e "s|@@CONF_DIR@@|$DIR|g" \
      -e "s|@@CACHE_DIR@@|$DIR/cache|g" \
      "deploy/nginx/$file" >"$DIR/$file"
  done
  local user_line=""
  [ "$(id -u)" = 0 ] && user_line="user root;"
  cat >"$DIR/nginx.conf" <<CONF
$user_line
worker_processes auto;
worker_rlimit_nofile 8192;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 4096; }
http {
  include $DIR/muster-http.conf;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log $DIR/nginx-access.log;
  client_body_temp_path $DIR/tmp/body;
  proxy_temp_path $DIR/tmp/proxy;
  fastcgi_temp_path $DIR/tmp/fastcgi;
  uwsgi_temp_path $DIR/tmp/uwsgi;
  scgi_temp_path $DIR/tmp/scgi;
  upstream muster_app {
$upstream  }
  server {
    listen 127.0.0.1:$PORT ssl;
    server_name localhost;
    ssl_certificate $DIR/tls.crt;
    ssl_certificate_key $DIR/tls.key;
    include $DIR/muster-tls.conf;
    include $DIR/muster-locations.conf;
  }
}
CONF
  nginx -t -q -p "$DIR" -c "$DIR/nginx.conf" 2>"$DIR/nginx-test.log" || { cat "$DIR/nginx-test.log" >&2; return 1; }
  nginx -p "$DIR" -c "$DIR/nginx.conf"
  for app_port in $APP_PORTS; do
    wait_for "gunicorn on $app_port" curl -sf "http://127.0.0.1:$app_port/ping/" -H "X-Forwarded-Proto: https"
  done
  wait_for nginx curl -skf "https://127.0.0.1:$PORT/healthz/"
  echo "https://127.0.0.1:$PORT"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
