/**
 * Prints the SHA-256 of each produce request in `src/kafkajs-patch.cases.ts` as an unpatched
 * kafkajs 2.2.4 encodes it, for the table in `src/kafkajs-patch.test.ts`.
 *
 *   npm pack kafkajs@2.2.4 && tar xzf kafkajs-2.2.4.tgz
 *   npx tsx packages/bus/scripts/kafkajs-stock-hashes.ts ./package
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { FIXED_NOW, produceCases, type LongLike } from "../src/kafkajs-patch.cases.js";

const root = process.argv[2];
if (!root) {
  console.error("usage: kafkajs-stock-hashes.ts <directory of an unpatched kafkajs 2.2.4>");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const load = (file: string): unknown => require(path.resolve(root, file));
type Encoded = { buffer: Buffer };
const produce = load("src/protocol/requests/produce/v3/request.js") as (args: Record<string, unknown>) => { encode(): Promise<Encoded> };
const frame = load("src/protocol/request.js") as (args: { correlationId: number; clientId: string; request: unknown }) => Promise<Encoded>;
const Long = load("src/utils/long.js") as LongLike;

Date.now = () => FIXED_NOW;
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
for (const c of produceCases(Long)) {
  const payload = (await produce(c.args).encode()).buffer;
  const framed = (await frame({ correlationId: 7, clientId: "fleet", request: produce(c.args) })).buffer;
  process.stdout.write(`${JSON.stringify({ name: c.name, payload: sha(payload), framed: sha(framed) })}\n`);
}
