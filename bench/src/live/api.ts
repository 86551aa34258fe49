import { jsonOf, type Client, type Reply } from "./http.js";

/** The API calls the bench makes, as the paths a client sends (`lang` and `user_api_hash` in the query, as the spec has them). */
export const latestPath = (apiHash: string, time?: number) => `/api/get_devices_latest?lang=en&user_api_hash=${apiHash}${time === undefined ? "" : `&time=${time}`}`;
export const fullListPath = (apiHash: string) => `/api/get_devices?lang=en&user_api_hash=${apiHash}`;

export interface LatestItem {
  id: number;
  lat: number;
  lng: number;
  timestamp: number;
}
export interface LatestAnswer {
  items: LatestItem[];
  time: number;
}

export const latestOf = (reply: Reply): LatestAnswer => jsonOf<LatestAnswer>(reply, "get_devices_latest");

/** A poll's `time` without parsing its items: the answer ends with `"time":<n>,"version":"..."}`. */
export function timeOf(reply: Reply): number | undefined {
  const body = reply.body;
  if (!body || reply.status !== 200) return undefined;
  const m = /"time":(\d+)/.exec(body.subarray(Math.max(0, body.length - 200)).toString("latin1"));
  return m ? Number(m[1]) : undefined;
}

/** A poll's `time`, or an error saying what came back instead. */
export function mustTime(reply: Reply): number {
  const t = timeOf(reply);
  if (t === undefined) throw new Error(`get_devices_latest gave no time: HTTP ${reply.status}: ${reply.body?.toString("utf8").slice(0, 300)}`);
  return t;
}

/** Items in a get_devices answer (devices by group). */
export function fullListCount(reply: Reply): number {
  return jsonOf<{ items: unknown[] }[]>(reply, "get_devices").reduce((n, g) => n + g.items.length, 0);
}

/** Sends a batch to POST /insert; throws unless the server took every position. */
export async function insertBatch(client: Client, body: string, count: number): Promise<Reply> {
  const reply = await client.postJson("/insert", body);
  const answer = jsonOf<{ accepted?: number; rejected?: unknown[] }>(reply, "POST /insert");
  if (answer.accepted !== count) throw new Error(`POST /insert took ${answer.accepted} of ${count} positions: ${JSON.stringify(answer.rejected ?? []).slice(0, 300)}`);
  return reply;
}
