import type { TrackPosition } from "@fleet/tracks";

/** Where positions go: POST /insert (JSON arrays) or GET /insert.php (one position a request, as Traccar forwards). */
export type Endpoint = "insert" | "insert.php";

export interface Counters {
  /** Positions handed to a request. */
  sent: number;
  accepted: number;
  /** Refused by ingest as invalid (422, or listed in a batch's `rejected`). */
  rejected: number;
  /** In requests that failed: no answer, or another status (the bus unavailable, the server gone). */
  failed: number;
  /** Due while too many were waiting for the server, and never sent. */
  skipped: number;
}

/** The first few failures, with what came back, for the summary. */
const NOTES_KEPT = 3;

/**
 * Sends due positions, at most `maxInFlight` requests at a time; positions due while
 * `maxQueued` are waiting are skipped and counted, so a slow server makes the rate drop
 * rather than the simulator's memory grow.
 */
export class Sender {
  readonly counters: Counters = { sent: 0, accepted: 0, rejected: 0, failed: 0, skipped: 0 };
  readonly notes: string[] = [];
  private readonly queue: TrackPosition[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly base: URL;
  private readonly perRequest: number;
  private readonly maxInFlight: number;

  constructor(
    url: string,
    private readonly endpoint: Endpoint,
    private readonly maxQueued: number,
  ) {
    this.base = new URL(url);
    // A batch stays well under ingest's 10,000; GETs run in parallel to keep up with a rate.
    this.perRequest = endpoint === "insert" ? 2000 : 1;
    this.maxInFlight = endpoint === "insert" ? 4 : 32;
  }

  push(positions: readonly TrackPosition[]): void {
    for (const p of positions) {
      if (this.queue.length >= this.maxQueued) this.counters.skipped++;
      else this.queue.push(p);
    }
    this.pump();
  }

  /** Waits until everything queued has been answered, or `timeoutMs` passed. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queue.length > 0 || this.inFlight.size > 0) && Date.now() < deadline) {
      await Promise.race([...this.inFlight, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())))]);
    }
  }

  private pump(): void {
    while (this.inFlight.size < this.maxInFlight && this.queue.length > 0) {
      const chunk = this.queue.splice(0, this.perRequest);
      this.counters.sent += chunk.length;
      const request = this.request(chunk).finally(() => {
        this.inFlight.delete(request);
        this.pump();
      });
      this.inFlight.add(request);
    }
  }

  private note(what: string): void {
    if (this.notes.length < NOTES_KEPT) this.notes.push(what);
  }

  private async request(chunk: TrackPosition[]): Promise<void> {
    try {
      const res = this.endpoint === "insert" ? await fetch(new URL("/insert", this.base), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(chunk) }) : await fetch(getUrl(this.base, chunk[0]!));
      const text = await res.text();
      if (res.status === 200) {
        const body = JSON.parse(text) as { accepted?: number; rejected?: unknown[] };
        const accepted = this.endpoint === "insert" ? (body.accepted ?? 0) : chunk.length;
        this.counters.accepted += accepted;
        this.counters.rejected += chunk.length - accepted;
        if (accepted < chunk.length) this.note(`rejected: ${JSON.stringify(body.rejected ?? []).slice(0, 200)}`);
      } else if (res.status === 422) {
        this.counters.rejected += chunk.length;
        this.note(`HTTP 422: ${text.slice(0, 200)}`);
      } else {
        this.counters.failed += chunk.length;
        this.note(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      }
    } catch (err) {
      this.counters.failed += chunk.length;
      this.note(`no answer: ${(err as Error).message}${(err as { cause?: Error }).cause ? ` (${(err as { cause: Error }).cause.message})` : ""}`);
    }
  }
}

/** A position as Traccar's forward.url sends it: every field in the query, the attributes as a JSON object. */
function getUrl(base: URL, p: TrackPosition): URL {
  const url = new URL("/insert.php", base);
  const q = url.searchParams;
  q.set("uniqueId", p.uniqueId);
  q.set("protocol", p.protocol);
  q.set("fixTime", String(p.fixTime));
  q.set("latitude", String(p.latitude));
  q.set("longitude", String(p.longitude));
  q.set("altitude", String(p.altitude));
  q.set("speed", String(p.speed));
  q.set("course", String(p.course));
  q.set("attributes", JSON.stringify(p.attributes));
  return url;
}
