#!/usr/bin/env bash
# The whole test suite. Starts the local services through infra/ when this machine can
# run them; where it cannot (no JDK, no PostgreSQL), integration tests are skipped with
# the reason printed, except under CI=true, where a missing service fails the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${FLEET_TEST_NO_INFRA:-}" != "1" ]; then
  if ! bash infra/up.sh; then
    if [ "${CI:-}" = "true" ]; then
      echo "CI: a service did not start; see above." >&2
      exit 1
    fi
    echo "Some services did not start; tests that need them will be skipped." >&2
  fi
fi
exec pnpm exec vitest run "$@"
