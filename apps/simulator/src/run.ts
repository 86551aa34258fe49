import type { CliEnv } from "@fleet/config";
import { modelFeeds, replayFeeds, type DeviceFeed } from "./feeds.js";
import { readGpxFiles } from "./gpx.js";
import type { CliOptions } from "./options.js";
import { registerDevices } from "./register.js";
import { counts, simulate, type SimulateSummary } from "./simulate.js";

export interface RunInput {
  cli: CliOptions;
  env: Pick<CliEnv, "FLEET_URL" | "FLEET_PASSWORD" | "FLEET_ADMIN_EMAIL" | "FLEET_ADMIN_PASSWORD">;
  signal: AbortSignal;
  out(line: string): void;
}

/** Every device reports every 5 s unless --rate says otherwise. */
const DEFAULT_INTERVAL_S = 5;

/** The feeds the options ask for, and the device names add_device would give them. */
async function feedsOf(cli: CliOptions, now: number): Promise<{ feeds: DeviceFeed[]; names: string[]; what: string }> {
  if (cli.gpx.length > 0) {
    const tracks = await readGpxFiles(cli.gpx);
    const devices = cli.devices ?? tracks.length;
    // Points recorded without a time follow each other at the rate's interval.
    const intervalMs = cli.rate ? (1000 * devices) / cli.rate : DEFAULT_INTERVAL_S * 1000;
    const feeds = replayFeeds(tracks, { devices, seed: cli.seed, speed: cli.speed, intervalMs, now });
    const names = feeds.map((_, i) => `GPX ${tracks[i % tracks.length]!.name}`.slice(0, 100));
    return { feeds, names, what: `replaying ${tracks.length} recorded track(s) on ${devices} device(s)${cli.speed === 1 ? "" : ` ${cli.speed}× faster`}` };
  }
  const devices = cli.devices ?? 10;
  const rate = cli.rate ?? devices / DEFAULT_INTERVAL_S;
  const feeds = modelFeeds({ devices, rate, seed: cli.seed, now });
  return { feeds, names: feeds.map((_, i) => `Simulated ${String(i + 1).padStart(4, "0")}`), what: `${devices} simulated device(s) at ${rate} positions/s (each every ${(devices / rate).toFixed(1)} s), seed ${cli.seed}` };
}

/** One simulator run: the devices registered if asked, then positions until stopped. */
export async function run(input: RunInput): Promise<SimulateSummary> {
  const { cli, env, out } = input;
  const url = cli.url ?? env.FLEET_URL;
  const { feeds, names, what } = await feedsOf(cli, Date.now());
  if (cli.user) {
    const r = await registerDevices(
      { url, email: cli.user, password: env.FLEET_PASSWORD, admin: { email: env.FLEET_ADMIN_EMAIL, password: env.FLEET_ADMIN_PASSWORD } },
      feeds.map((f, i) => ({ uniqueId: f.uniqueId, name: names[i]! })),
      out,
    );
    out(`${cli.user}${r.created ? " (created now)" : ""}: ${r.added} device(s) added, ${r.existing} already there`);
  } else {
    out(`no --user: the devices (${feeds[0]?.uniqueId}, ...) are not registered, so ingest accepts their positions but the tracker keeps none (see \`pnpm fleet unregistered\`)`);
  }
  const rate = cli.gpx.length > 0 ? undefined : (cli.rate ?? feeds.length / DEFAULT_INTERVAL_S);
  out(`sending to ${new URL(cli.endpoint === "insert" ? "/insert" : "/insert.php", url)}: ${what}; Ctrl-C stops`);
  const summary = await simulate({
    url,
    endpoint: cli.endpoint,
    feeds,
    durationS: cli.durationS,
    progressS: cli.progressS,
    // Half a minute of positions may wait for a slow server; beyond that they are skipped.
    maxQueued: Math.max(10_000, Math.ceil((rate ?? 1000) * 30)),
    signal: input.signal,
    out,
  });
  for (const note of summary.notes) out(`  ${note}`);
  return summary;
}

export const summaryLine = (s: SimulateSummary) =>
  `simulate: ${s.reason} after ${s.seconds.toFixed(1)} s: ${counts(s)}; ${(s.accepted / Math.max(s.seconds, 0.001)).toFixed(1)} accepted/s`;
