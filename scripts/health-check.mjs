/* global process, fetch, AbortSignal */
// The containers' health check (docker-compose.yml): exit 0 when the URL answers 2xx
// within 3 seconds, 1 otherwise. Node is all the app image has (no curl or wget).
const url = process.argv[2];
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
