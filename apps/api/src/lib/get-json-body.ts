import { FailureError } from "@fleet/contracts";
import type { FastifyRequest } from "fastify";

/** A GET's JSON body is a few ids and flags; anything longer is refused, not buffered. */
const MAX_BYTES = 1024 * 1024;

const sendsBody = (req: FastifyRequest) => req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

async function readRaw(req: FastifyRequest): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) throw new FailureError(413, `The body of a GET request may be at most ${MAX_BYTES / 1024} KB.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * fastify reads no body on a GET, but the vendor's Swagger puts the input of some GET endpoints
 * (the change_active_* calls, set_alert_devices, get_custom_events_by_device...) in a JSON body,
 * and Laravel reads a JSON body as the input of any method. So a GET's JSON object body is read
 * here and its fields join the query, the body's value winning as Laravel's does; the query
 * schema then checks them as it checks the query. Other bodies of a GET are left unread, as
 * Laravel leaves them.
 */
export async function getJsonBodyIntoQuery(req: FastifyRequest): Promise<void> {
  if (req.method !== "GET" || !sendsBody(req) || !(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) return;
  const text = await readRaw(req);
  if (text.trim() === "") return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new FailureError(400, "Body is not valid JSON but content-type is set to 'application/json'");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const query = (req.query ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(body)) if (k !== "__proto__" && v !== undefined) query[k] = v;
  req.query = query;
}
