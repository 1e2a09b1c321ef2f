#!/usr/bin/env bash
# Install (Debian apt) and start what the server and browser tests need: a real PostgreSQL
# server, Debian's chromium, and HAProxy (the cluster test starts its own, on loopback).
# Idempotent; run as root on a bare Debian machine. apt installs only what these need
# (--no-install-recommends): no mail server, cron or desktop services come along.
#
# Use either:   eval "$(bash scripts/ci-services.sh)"
#        or:    source scripts/ci-services.sh
# Both leave KINGSBREAKFAST_TEST_POSTGRES_URL exported; everything else goes to stderr.
set -euo pipefail

_kb_free_port() {  # the first TCP port from $1 up that nothing listens on
  local port=$1
  while ss -Htln "sport = :$port" | grep -q .; do
    port=$((port + 1))
  done
  echo "$port"
}

_kb_services() {
  local need=()
  command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
  # dbus-x11 gives chromium's session-bus dependency without the default choice's systemd
  [ -x /usr/bin/chromium ] || need+=(chromium dbus-x11)
  # the fonts the browser tests lay pages out with (every letter of the five languages)
  [ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
  command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
  # Playwright's own driver (a node binary in the wheel) links against libatomic
  ldconfig -p | grep 'libatomic\.so\.1 ' >/dev/null || need+=(libatomic1)
  # the worker test asks which process listens on a port
  command -v ss >/dev/null 2>&1 || need+=(iproute2)
  # tests/test_c_playout.py builds the C playout (libc6-dev: gcc only recommends the C headers)
  command -v cc >/dev/null 2>&1 || need+=(gcc)
  [ -f /usr/include/stdint.h ] || need+=(libc6-dev)
  # the terminal tests run the game in a real terminal: a tmux pane of a given size
  command -v tmux >/dev/null 2>&1 || need+=(tmux)
  if ((${#need[@]})); then
    echo "ci-services: installing ${need[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${need[@]}" >&2
  fi

  local version
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version main"; then
    # pg_createcluster avoids only its own clusters' ports: take one nothing listens on
    pg_createcluster -p "$(_kb_free_port 5432)" "$version" main >&2
  fi
  local port
  port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
  if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
    pg_ctlcluster "$version" main start >&2
  fi
  local i
  for i in $(seq 1 60); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 0.5
  done
  pg_isready -h 127.0.0.1 -p "$port" >&2

  local psql=(runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qtA)
  if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = 'kingsbreakfast'")" != "1" ]; then
    "${psql[@]}" -c "CREATE ROLE kingsbreakfast LOGIN PASSWORD 'kingsbreakfast'" >&2
  fi
  # each test worker (pytest-xdist) makes a database of its own beside kingsbreakfast_test
  "${psql[@]}" -c "ALTER ROLE kingsbreakfast CREATEDB" >&2
  if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'kingsbreakfast_test'")" != "1" ]; then
    "${psql[@]}" -c "CREATE DATABASE kingsbreakfast_test OWNER kingsbreakfast" >&2
  fi
  KINGSBREAKFAST_TEST_POSTGRES_URL="postgresql://kingsbreakfast:kingsbreakfast@127.0.0.1:${port}/kingsbreakfast_test"
  export KINGSBREAKFAST_TEST_POSTGRES_URL
  echo "export KINGSBREAKFAST_TEST_POSTGRES_URL=${KINGSBREAKFAST_TEST_POSTGRES_URL}"
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  _kb_services >/dev/null  # sourced: export into the caller's shell
  set +euo pipefail
else
  _kb_services
fi
