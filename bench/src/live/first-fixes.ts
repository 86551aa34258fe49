import { fullListCount, fullListPath, insertBatch, latestOf, latestPath, mustTime } from "./api.js";
import { sleep } from "./harness.js";
import type { Client } from "./http.js";
import { batchJson, Traffic, type FixClock } from "./positions.js";
import type { Account, Population } from "./seed.js";
import { fmt } from "./stats.js";

const BATCH = 2000;

/**
 * Gives every device its first position through POST /insert, then waits until
 * get_devices_latest shows all of them to their owners, and checks that get_devices
 * lists the measured account's whole fleet.
 */
export async function pushFirstFixes(client: Client, population: Population, clock: FixClock, log: (line: string) => void, timeoutMs = 300_000): Promise<void> {
  const accounts = [population.measured, ...population.clients];
  const t0 = mustTime(await client.get(latestPath(population.measured.apiHash, Math.floor(Date.now() / 1000)), true));
  const imeis = accounts.flatMap((a) => a.imeis);
  const traffic = new Traffic(imeis, clock);
  const started = Date.now();
  for (let sent = 0; sent < imeis.length; sent += BATCH) {
    const n = Math.min(BATCH, imeis.length - sent);
    await insertBatch(client, batchJson(traffic.take(n)), n);
  }
  log(`  ${fmt(imeis.length)} first positions sent in ${fmt((Date.now() - started) / 1000, 1)} s; waiting until the API shows them`);

  // Each owner polls as a client does, with the `time` of its previous answer, and collects
  // the devices shown with a position: cheap polls, not the whole list again and again.
  const deadline = Date.now() + timeoutMs;
  const visible = async (a: Account) => {
    const shown = new Set<number>();
    let time = t0;
    for (;;) {
      const reply = await client.get(latestPath(a.apiHash, time), true);
      const answer = latestOf(reply);
      time = mustTime(reply);
      for (const i of answer.items) if (i.timestamp > 0) shown.add(i.id);
      if (a.deviceIds.every((id) => shown.has(id))) return;
      if (Date.now() > deadline) throw new Error(`after ${timeoutMs / 1000} s only ${shown.size} of ${a.deviceIds.length} devices of ${a.email} show a position`);
      await sleep(500);
    }
  };
  await visible(population.measured);
  for (let i = 0; i < population.clients.length; i += 10) await Promise.all(population.clients.slice(i, i + 10).map(visible));
  log(`  all devices show their first position, ${fmt((Date.now() - started) / 1000, 1)} s after the first was sent`);

  const full = await client.get(fullListPath(population.measured.apiHash), true);
  const count = fullListCount(full);
  if (count !== population.measured.deviceIds.length) throw new Error(`get_devices lists ${count} devices, not ${population.measured.deviceIds.length}`);
}
