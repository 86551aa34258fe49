#!/usr/bin/env bash
# Machine PostgreSQL on 127.0.0.1:5432 (Debian cluster). Usage: postgres.sh start|status|stop
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ready() { pg_isready -q -h 127.0.0.1; }

# ctl ACTION: run pg_ctlcluster ACTION on every cluster under /etc/postgresql (e.g. 15/main).
ctl() {
  local conf
  for conf in /etc/postgresql/*/*/postgresql.conf; do
    [[ -f $conf ]] || { echo "error: no PostgreSQL cluster found under /etc/postgresql" >&2; return 1; }
    conf=${conf%/postgresql.conf}
    pg_ctlcluster --skip-systemctl-redirect "$(basename "$(dirname "$conf")")" "$(basename "$conf")" "$1" || true
  done
}

case "${1:-}" in
  start)
    need pg_isready pg_ctlcluster
    if ready; then echo "postgres: already running"; exit 0; fi
    ctl start
    wait_for postgres 30 ready
    ;;
  status)
    need pg_isready
    if ready; then echo "postgres: running (127.0.0.1:5432)"; else echo "postgres: not running"; exit 1; fi
    ;;
  stop)
    need pg_ctlcluster
    ctl stop
    echo "postgres: stopped"
    ;;
  *) echo "usage: $0 start|status|stop" >&2; exit 2 ;;
esac
