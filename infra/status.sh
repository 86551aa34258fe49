#!/usr/bin/env bash
# One status line per service; exit non-zero if any is down.
set -euo pipefail
INFRA=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rc=0
for svc in postgres redis kafka; do bash "$INFRA/$svc.sh" status || rc=1; done
exit "$rc"
