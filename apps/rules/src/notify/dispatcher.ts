import { claimDueNotifications, finishNotification, undeliverableEvents, pruneNotifications, type Db, type NotificationRow } from "@fleet/db";
import { PermanentDeliveryError, webhookHost, type Channel } from "./channels.js";
import type { NotificationChannel } from "@fleet/db";

export interface DispatcherOptions {
  db: Db;
  channels: Partial<Record<NotificationChannel, Channel>>;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** How often due notifications are looked for. Default 1 s. */
  everyMs?: number;
  /** Notifications taken at once. Default 20. */
  batch?: number;
  /** Most deliveries under way at once; a slow one holds its place, not the others'. Default 100. */
  maxInFlight?: number;
  /** How long a taken notification is held before another dispatcher may take it. Default 60 s. */
  leaseMs?: number;
  /** How long a notification is tried before it fails for good. Default 1 h. */
  giveUpAfterMs?: number;
  /** How long a notification done (sent or failed) is kept. Default 30 days. */
  retentionMs?: number;
  /** How often done notifications older than that are deleted. Default 10 min. */
  pruneEveryMs?: number;
  now?: () => number;
}

export interface Dispatcher {
  /** Delivers what is due now (as the timer does); resolves with how many it attempted. */
  tick(): Promise<number>;
  /** Deletes the done notifications past their retention now (as the timer does); resolves with how many. */
  prune(): Promise<number>;
  close(): Promise<void>;
}

/** The wait before attempt n+1: 10 s doubling, at most 10 min, so an hour holds about ten tries. */
export function retryDelayMs(attempts: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
}

/** What a log line may say of an attempt: the channel and, for a webhook, the host; never a URL's path, an address or a body. */
function logged(row: NotificationRow) {
  const target = row.channel === "webhook" ? { host: webhookHost(String((row.payload as { url?: unknown }).url)) } : row.channel === "email" ? { recipients: ((row.payload as { to?: unknown[] }).to ?? []).length } : {};
  return { notificationId: row.id, eventId: row.eventId, channel: row.channel, attempt: row.attempts, ...target };
}

/**
 * Delivers queued notifications (the outbox recordEvents fills): takes the due ones with
 * a lease, so several instances share them, hands each to its channel, none waiting for
 * another, and marks it sent, failed for good (a permanent error, or tried for an hour), or
 * due again after a growing delay. Every attempt is logged.
 */
export function startDispatcher(opts: DispatcherOptions): Dispatcher {
  const now = opts.now ?? Date.now;
  const giveUpAfterMs = opts.giveUpAfterMs ?? 60 * 60_000;
  let running: Promise<Promise<void>[]> | undefined;

  /** `refused`: why the event's notifications are no longer sent (undeliverableEvents), if they are not. */
  async function deliver(row: NotificationRow, refused: string | undefined): Promise<void> {
    const channel = opts.channels[row.channel];
    try {
      if (refused !== undefined) throw new PermanentDeliveryError(refused);
      if (!channel) throw new PermanentDeliveryError(`no ${row.channel} channel here`);
      await channel(row);
      await finishNotification(opts.db, row.id, { status: "sent" });
      opts.logger.info({ ...logged(row), outcome: "sent" }, "notification delivered");
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const expired = now() - row.createdAt.getTime() + retryDelayMs(row.attempts) > giveUpAfterMs;
      if (err instanceof PermanentDeliveryError || expired) {
        await finishNotification(opts.db, row.id, { status: "failed", error });
        opts.logger.warn({ ...logged(row), outcome: "failed", error }, "notification failed for good");
      } else {
        const retryAt = new Date(now() + retryDelayMs(row.attempts));
        await finishNotification(opts.db, row.id, { status: "pending", error, retryAt });
        opts.logger.warn({ ...logged(row), outcome: "retry", error, retryAt: retryAt.toISOString() }, "notification failed; trying again later");
      }
    }
  }

  /*
   * Deliveries run on their own: a webhook that answers after its 10 s, or a mail server that
   * never greets, holds its own place only, and the next round takes what fell due meanwhile
   * (a probe's webhook waited up to 10 s behind another user's slow one). The lease keeps a
   * delivery under way from being taken again.
   */
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = opts.maxInFlight ?? 100;

  /** Takes what is due, as much as there is room for, and starts delivering it; resolves with the deliveries. */
  async function takeDue(): Promise<Promise<void>[]> {
    const room = Math.min(opts.batch ?? 20, maxInFlight - inFlight.size);
    if (room <= 0) return [];
    const rows = await claimDueNotifications(opts.db, { limit: room, leaseMs: opts.leaseMs ?? 60_000, now: new Date(now()) });
    const refused = await undeliverableEvents(opts.db, [...new Set(rows.map((r) => r.eventId))]);
    return rows.map((r) => {
      // Nobody awaits a delivery the timer started: a store that failed while recording its outcome is
      // logged here (the lease runs out and it is taken again), never left an unhandled rejection.
      const delivery: Promise<void> = deliver(r, refused.get(r.eventId))
        .catch((err: unknown) => opts.logger.warn({ err, notificationId: r.id }, "could not record a notification's outcome; it will be taken again"))
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
      return delivery;
    });
  }

  const take = () => (running ??= takeDue().finally(() => (running = undefined)));
  /** What the timer does, waiting for the deliveries it started: for tests and the service's dispatch(). */
  const tick = async () => {
    const started = await take();
    await Promise.all(started);
    return started.length;
  };
  const timer = setInterval(() => {
    take().catch((err: unknown) => opts.logger.warn({ err }, "could not take due notifications; trying again"));
  }, opts.everyMs ?? 1000);
  timer.unref();

  const retentionMs = opts.retentionMs ?? 30 * 24 * 60 * 60_000;
  let pruning: Promise<number> | undefined;
  /** In chunks, so no one statement holds many rows' locks: every instance prunes, and they share the work. */
  async function pruneOnce(): Promise<number> {
    const before = new Date(now() - retentionMs);
    let total = 0;
    for (;;) {
      const n = await pruneNotifications(opts.db, { before, limit: PRUNE_CHUNK });
      total += n;
      if (n < PRUNE_CHUNK) return total;
    }
  }
  const prune = () => (pruning ??= pruneOnce().finally(() => (pruning = undefined)));
  const pruneTimer = setInterval(() => {
    prune()
      .then((n) => n > 0 && opts.logger.info({ notifications: n }, "done notifications past their retention deleted"))
      .catch((err: unknown) => opts.logger.warn({ err }, "could not delete old notifications; trying again later"));
  }, opts.pruneEveryMs ?? 10 * 60_000);
  pruneTimer.unref();

  return {
    tick,
    prune,
    async close() {
      clearInterval(timer);
      clearInterval(pruneTimer);
      await Promise.all([running?.catch(() => undefined), pruning?.catch(() => undefined)]);
      await Promise.all(inFlight);
    },
  };
}

const PRUNE_CHUNK = 5000;
