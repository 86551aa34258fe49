import { parseArgs } from "node:util";
import type { Endpoint } from "./sender.js";

export const HELP = `Usage: pnpm simulate [--devices N] [--rate R] [--user EMAIL] [--gpx FILE... [--speed X]] [options]

Pushes realistic tracks to the server in real time: vehicles driving generated streets (turns,
acceleration and braking, traffic stops, parking with the ignition off, GPS noise, the odd
lost stretch, repeated and late position), or recorded GPX tracks replayed.

  --devices N        simulated devices (default 10; with --gpx, one per track in the files)
  --rate R           positions a second over all devices (default: one per device every 5 s)
  --user EMAIL       register the devices for this account first (add_device), signed in with
                     FLEET_PASSWORD; with FLEET_ADMIN_PASSWORD too, a missing account is created
  --gpx FILE...      replay these GPX files' tracks instead (device i plays track i mod tracks)
  --speed X          replay X times faster than recorded (default 1)
  --endpoint E       insert (POST /insert, JSON batches; default) or insert.php (a GET per position)
  --duration S       stop after S seconds (default: until Ctrl-C, or until every replay ended)
  --seed N           the model's seed; the same seed drives the same way and names the same
                     devices (sim-<seed>-0001, ...) (default 1)
  --progress S       seconds between progress lines (default 5)
  --url URL          the server (default FLEET_URL, else http://127.0.0.1:8080)

Ctrl-C stops it; it prints a summary line and exits 0.`;

export interface CliOptions {
  devices?: number;
  rate?: number;
  user?: string;
  gpx: string[];
  speed: number;
  endpoint: Endpoint;
  durationS?: number;
  seed: number;
  progressS: number;
  url?: string;
  help: boolean;
}

function number(name: string, raw: string | undefined, check: (n: number) => boolean, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n)) throw new Error(`--${name} must be ${what}, got ${JSON.stringify(raw)}.`);
  return n;
}

const wholeIn = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;
const positive = (n: number) => n > 0;

/** The command line, checked; an Error naming the option when something is off. */
export function parseCli(argv: string[]): CliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      devices: { type: "string" },
      rate: { type: "string" },
      user: { type: "string" },
      gpx: { type: "string", multiple: true },
      speed: { type: "string" },
      endpoint: { type: "string" },
      duration: { type: "string" },
      seed: { type: "string" },
      progress: { type: "string" },
      url: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const gpx = [...(values.gpx ?? [])];
  // `--gpx a.gpx b.gpx`: the files after the first arrive as positionals.
  if (positionals.length > 0) {
    if (gpx.length === 0) throw new Error(`Unexpected argument ${JSON.stringify(positionals[0])}.`);
    gpx.push(...positionals);
  }
  const endpoint = values.endpoint ?? "insert";
  if (endpoint !== "insert" && endpoint !== "insert.php") throw new Error(`--endpoint must be insert or insert.php, got ${JSON.stringify(endpoint)}.`);
  if (values.user !== undefined && !/^[^@\s]+@[^@\s]+$/.test(values.user)) throw new Error(`--user must be an email address, got ${JSON.stringify(values.user)}.`);
  if (values.url !== undefined && !/^https?:\/\//.test(values.url)) throw new Error(`--url must start with http:// or https://, got ${JSON.stringify(values.url)}.`);
  return {
    devices: number("devices", values.devices, wholeIn(1, 100_000), "a whole number from 1 to 100000"),
    rate: number("rate", values.rate, (n) => n > 0 && n <= 1_000_000, "a number of positions a second above 0 (at most 1000000)"),
    user: values.user,
    gpx,
    speed: number("speed", values.speed, positive, "a factor above 0") ?? 1,
    endpoint,
    durationS: number("duration", values.duration, positive, "a number of seconds above 0"),
    seed: number("seed", values.seed, wholeIn(0, 2 ** 31 - 1), "a whole number from 0 to 2147483647") ?? 1,
    progressS: number("progress", values.progress, positive, "a number of seconds above 0") ?? 5,
    url: values.url,
    help: values.help,
  };
}
