#!/usr/bin/env bash
# Start local dev/test infra: postgres, redis, kafka (in that order). Exit non-zero if any failed.
set -euo pipefail
INFRA=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
summary=() rc=0
for svc in postgres redis kafka; do
  if bash "$INFRA/$svc.sh" start; then summary+=("$svc: up"); else summary+=("$svc: FAILED"); rc=1; fi
done
printf '%s\n' "--- infra ---" "${summary[@]}"
exit "$rc"
