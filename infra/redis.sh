#!/usr/bin/env bash
# Machine Redis on 127.0.0.1:6379. Usage: redis.sh start|status|stop
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ready() { [[ $(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null) == PONG ]]; }

case "${1:-}" in
  start)
    need redis-server redis-cli
    if ready; then echo "redis: already running"; exit 0; fi
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for redis 30 ready
    ;;
  status)
    need redis-cli
    if ready; then echo "redis: running (127.0.0.1:6379)"; else echo "redis: not running"; exit 1; fi
    ;;
  stop)
    need redis-cli
    if ready; then redis-cli -h 127.0.0.1 -p 6379 shutdown nosave >/dev/null 2>&1 || true; fi
    echo "redis: stopped"
    ;;
  *) echo "usage: $0 start|status|stop" >&2; exit 2 ;;
esac
