import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** The channel users_notify_changed (migration 0007) sends each changed user's old api hash on. */
export const USERS_CHANGED_CHANNEL = "fleet_users";

/** What a listener is told: each payload sent on its channel, and when some may have been missed. */
export interface NoticeHandlers {
  notice(payload: string): void;
  /** Notices may have been missed: the listening connection was lost, or is back and missed what came meanwhile. */
  gap(): void;
}

export interface NoticeListener {
  /** False while the listening connection is lost: notices sent meanwhile are missed. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/** How long a lost PostgreSQL listening connection waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * Listens on `channel` (pg_notify) over a connection of its own, outside the pool: a
 * LISTEN belongs to a session. A lost connection reports a gap and is opened again until
 * closed; once it listens again it reports another gap, for what was sent while it was down.
 */
export async function listenPostgres(url: string, channel: string, handlers: NoticeHandlers): Promise<NoticeListener> {
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function open(): Promise<void> {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (n) => {
      if (n.channel === channel) handlers.notice(n.payload ?? "");
    });
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      listening = false;
      handlers.gap();
      if (!closed) retry = setTimeout(() => void open().catch(lost), RECONNECT_MS);
    };
    c.on("error", lost);
    c.on("end", lost);
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      lost();
      c.end().catch(() => undefined);
      throw err;
    }
    if (closed) return;
    const wasDown = !listening;
    listening = true;
    if (wasDown) handlers.gap();
  }

  await open();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      listening = false;
      await c?.end();
    },
  };
}

/** The same on PGlite, in process: nothing to lose, so never a gap. */
export async function listenPglite(client: PGlite, channel: string, handlers: NoticeHandlers): Promise<NoticeListener> {
  const unlisten = await client.listen(channel, (payload) => handlers.notice(payload));
  let listening = true;
  return {
    get listening() {
      return listening;
    },
    async close() {
      listening = false;
      await unlisten();
    },
  };
}
