# shellcheck shell=bash
# Helpers sourced by infra/*.sh.

# need CMD...: fail with a clear message if a required binary is missing.
need() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || { echo "error: '$c' is not installed (needed by $(basename "$0"))" >&2; exit 127; }
  done
}

# wait_for WHAT SECONDS CMD...: poll CMD once a second, printing dots, until it succeeds.
wait_for() {
  local what=$1 secs=$2 i
  shift 2
  printf 'waiting for %s ' "$what"
  for ((i = 0; i < secs; i++)); do
    if "$@"; then echo "ready (${i}s)"; return 0; fi
    printf .
    sleep 1
  done
  echo " not ready after ${secs}s" >&2
  return 1
}
