#!/usr/bin/env bash
# The Debian packages Muster needs besides Python: `scripts/system-deps.sh run` for `make run`
# (WeasyPrint's Pango and fonts, gettext for the translations), `... test` for `make test` (also
# Chromium for the browser tests and poppler for the PDF checks), `... stack` for the deployment
# smoke and load tests (nginx, Redis, PostgreSQL, openssl, curl).
# The suite also serves the shipped TLS settings through a real nginx (tests/security/test_nginx_tls.py),
# so `test` takes nginx and openssl too: a fresh machine's `make test` needs nothing else.
#
# Missing packages are installed when that is possible (root, with apt-get); otherwise the
# script stops at once and prints the one command that installs them.
set -euo pipefail

run_packages=(libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core gettext)
test_packages=("${run_packages[@]}" chromium poppler-utils nginx openssl)
# Node runs the phone's rules against the engine's cases (`node --test tests/js/`): the machine's own
# Node where there is one, else Debian's.
command -v node >/dev/null 2>&1 || test_packages+=(nodejs)
stack_packages=(nginx redis-server postgresql openssl curl)

case "${1:-}" in
  run) wanted=("${run_packages[@]}") ;;
  test) wanted=("${test_packages[@]}") ;;
  stack) wanted=("${stack_packages[@]}") ;;
  *) echo "usage: $0 run|test|stack" >&2; exit 2 ;;
esac

if ! command -v dpkg >/dev/null 2>&1; then
  # Not Debian: nothing to check with; the tests themselves name a missing tool when they need it.
  exit 0
fi

missing=()
for pkg in "${wanted[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi

echo "Muster needs these Debian packages: ${missing[*]}" >&2
echo "Install them with:  sudo apt-get install -y ${missing[*]}" >&2
exit 1
