#!/usr/bin/env bash
# Stop Kafka. PostgreSQL and Redis are machine-wide services and are left running
# (use infra/postgres.sh stop / infra/redis.sh stop explicitly if you really want that).
set -euo pipefail
INFRA=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bash "$INFRA/kafka.sh" stop
echo "postgres, redis: left running (machine services)"
