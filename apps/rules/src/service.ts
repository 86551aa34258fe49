import { randomUUID } from "node:crypto";
import { PermanentError, decodeAll, jsonMessages, sendWithin, withDeadLetters, type Bus, type BusConsumer, type BusProducer, type DeliveredMessage, type Rejected } from "@fleet/bus";
import { ConsumerGroups, EnrichedPositionSchema, RulesChangedSchema, Topics, type EnrichedPosition } from "@fleet/contracts";
import { findUserById, loadDeviceRuleRecords, loadUserRuleRecords, onEventsRecorded, recordEvents, type Db, type EventNotification } from "@fleet/db";
import type { Geocoder } from "@fleet/geocoder";
import type { Mailer } from "@fleet/mail";
import type { LiveStore, RuleState, RuleStateChange } from "@fleet/live";
import { evaluateDevice, type Found } from "./evaluate.js";
import type { DeviceRules } from "./model.js";
import { channels } from "./notify/channels.js";
import { startDispatcher } from "./notify/dispatcher.js";
import { notificationsOf } from "./notify/payloads.js";
import { ruleBook, type RuleBook, type SeenDevice } from "./rule-book.js";
import { startReminders } from "./reminders/reminder-timer.js";
import { StateCache } from "./state-cache.js";
import { startSweeper } from "./sweeper.js";

export interface RulesLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface RulesOptions {
  bus: Bus;
  db: Db;
  live: Pick<LiveStore, "getStates" | "getRuleStates" | "getRuleStateMember" | "changeRuleStates" | "markEvents" | "claim">;
  logger: RulesLogger;
  partitionsConcurrently?: number;
  /** How long a device's rules are kept without a notice; see RuleBookOptions. */
  rulesMaxAgeMs?: number;
  /** How often silent devices are swept for offline and stop durations. Default 30 s. */
  sweepEveryMs?: number;
  /** How often maintenance services are looked at for reminders due. Default 60 s. */
  remindEveryMs?: number;
  /** Alerts' email notifications go out through it; without it they fail (logged). */
  mailer?: Pick<Mailer, "send">;
  /** Names the place in webhooks' `position.address` and alert mail; without it they carry no address. */
  geocoder?: Pick<Geocoder, "reverse">;
  /** Whether webhooks may be at private addresses (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate?: boolean;
  /** How often queued notifications are looked for. Default 1 s. */
  dispatchEveryMs?: number;
  /** How many days a delivered or failed notification is kept (NOTIFICATIONS_RETENTION_DAYS). Default 30. */
  notificationsRetentionDays?: number;
  /** Where a new group starts on the positions topic: at the end (default: a new deployment does not replay old positions) or, for benches, the beginning. */
  fromBeginning?: boolean;
  /** Overrides for tests that run several services or topics side by side. */
  topic?: string;
  noticesTopic?: string;
  commandsTopic?: string;
  deadTopic?: string;
  groupId?: string;
}

export interface Rules {
  /** Enriched positions handled since start: their events recorded and their devices' rule state stored. */
  seen(): number;
  /** Events recorded since start (each once, whatever the replays). */
  recorded(): number;
  /** Messages dead-lettered since start. */
  deadLettered(): number;
  /** Sweeps silent devices now (as the timer does, without its lease); resolves with the events it recorded. */
  sweep(): Promise<number>;
  /** Looks at the maintenance services now (as the timer does, without its lease); resolves with the reminders it recorded. */
  remind(): Promise<number>;
  /** Delivers the notifications due now (as the timer does); resolves with how many it attempted. */
  dispatch(): Promise<number>;
  close(): Promise<void>;
}

const decodePosition = jsonMessages(EnrichedPositionSchema, "an enriched position");
const decodeNotice = jsonMessages(RulesChangedSchema, "a rules.changed notice");

/** A batch's positions by device, in the order they came (one partition holds each device's positions in order). */
function byDevice(positions: readonly EnrichedPosition[]): Map<number, { seen: SeenDevice; positions: EnrichedPosition[] }> {
  const out = new Map<number, { seen: SeenDevice; positions: EnrichedPosition[] }>();
  for (const p of positions) {
    const entry = out.get(p.deviceId) ?? { seen: { deviceId: p.deviceId, userIds: p.userIds }, positions: [] };
    entry.positions.push(p);
    out.set(p.deviceId, entry);
  }
  return out;
}

/**
 * Joins the rules group on positions.enriched: each partition's positions run, in order per
 * device, through the detectors of the alerts watching their device (evaluate.ts), from the
 * devices' rule state in the live store. Events are recorded first, each once by its dedupe
 * key, then the new state is written: a crash in between runs the positions again from the
 * old state, finding the same events, which record nothing new. The rule book is kept fresh
 * by the api's rules.changed notices, which every instance reads (a group of its own).
 */
export async function startRules(opts: RulesOptions): Promise<Rules> {
  const counters = { seen: 0, recorded: 0 };
  const book: RuleBook = ruleBook(
    { devices: (ids) => loadDeviceRuleRecords(opts.db, ids), users: (ids) => loadUserRuleRecords(opts.db, ids) },
    { maxAgeMs: opts.rulesMaxAgeMs },
  );
  const states = new StateCache({ live: opts.live });
  // Recorded events reach the next get_devices_latest poll through the live store's event index.
  onEventsRecorded(opts.db, (recorded) => opts.live.markEvents(recorded));

  async function handle(messages: readonly DeliveredMessage[]): Promise<Rejected[]> {
    const { seen, rejected, ran } = await detect(messages);
    if (ran) {
      await record(ran.found, ran.rules);
      if (ran.changes.length > 0) await opts.live.changeRuleStates(ran.changes);
      // Only once stored: a batch that fails is run again from what the store holds.
      for (const [id, state] of ran.after) states.remember(id, state);
    }
    counters.seen += seen;
    return rejected;
  }

  /**
   * Decodes a batch and runs its watched devices' positions through their detectors. A function
   * of its own so that the decoded positions are garbage once it returns (but those of events):
   * recording and storing wait on the database while other batches are decoded, and positions
   * still held then would be copied by every young collection in between.
   */
  async function detect(messages: readonly DeliveredMessage[]) {
    const { values: positions, rejected } = decodeAll(messages, decodePosition);
    const devices = byDevice(positions);
    const rules = await book.of([...devices.values()].map((d) => d.seen));
    if (rules.size === 0) return { seen: positions.length, rejected, ran: undefined };
    const ids = [...rules.keys()];
    const stored = await states.load(ids);
    const found: Found[] = [];
    const changes: RuleStateChange[] = [];
    const after: [number, RuleState][] = [];
    for (const id of ids) {
      const { found: f, state, change } = evaluateDevice(rules.get(id)!, devices.get(id)!.positions, stored.get(id));
      for (const one of f) found.push(one);
      if (change) changes.push({ deviceId: id, ...change });
      after.push([id, state]);
    }
    return { seen: positions.length, rejected, ran: { rules, found, changes, after } };
  }

  /** Records what the detectors or the sweep found, each once with its notifications; how many were new. */
  async function record(found: readonly Found[], rules: ReadonlyMap<number, DeviceRules>): Promise<number> {
    const queued = new Map<string, EventNotification[]>();
    for (const f of found) {
      const r = rules.get(f.event.deviceId);
      if (r) queued.set(`${f.event.userId}:${f.event.dedupeKey}`, notificationsOf(f, r));
    }
    const inserted = await recordEvents(
      opts.db,
      found.map((f) => f.event),
      (e) => queued.get(`${e.userId}:${e.dedupeKey}`) ?? [],
    );
    counters.recorded += inserted.length;
    if (inserted.length > 0) opts.logger.debug({ events: inserted.length, found: found.length }, "events recorded");
    return inserted.length;
  }

  const producer: BusProducer = await opts.bus.producer();
  const groupId = opts.groupId ?? ConsumerGroups.rules;
  const deadLetters = withDeadLetters(({ messages }) => handle(messages), {
    producer,
    deadTopic: opts.deadTopic ?? Topics.eventsDead,
    groupId,
    logger: opts.logger,
  });

  const noticesTopic = opts.noticesTopic ?? Topics.rulesChanged;
  const notices: BusConsumer = await opts.bus.consume({
    // Every instance reads every notice: a group of its own, from where it joins (it starts with an empty book).
    groupId: `${groupId}-notices-${randomUUID()}`,
    topic: noticesTopic,
    fromBeginning: false,
    ephemeral: true,
    handleBatch: async ({ messages }) => {
      for (const m of messages) {
        const notice = decodeNotice(m);
        if (notice instanceof PermanentError) opts.logger.warn({ topic: noticesTopic, offset: m.offset, error: notice.message }, "skipped a rules.changed notice that is not one");
        else book.changed(notice);
      }
    },
  });

  const topic = opts.topic ?? Topics.positionsEnriched;
  const consumer: BusConsumer = await opts.bus.consume({
    groupId,
    topic,
    fromBeginning: opts.fromBeginning ?? false,
    partitionsConcurrently: opts.partitionsConcurrently ?? 4,
    handleBatch: deadLetters.handleBatch,
  });
  opts.logger.info({ topic }, "rules consuming");
  const sweeper = startSweeper({ db: opts.db, live: opts.live, book, record, everyMs: opts.sweepEveryMs ?? 30_000, logger: opts.logger });
  const reminders = startReminders({ db: opts.db, live: opts.live, everyMs: opts.remindEveryMs ?? 60_000, logger: opts.logger });
  const { geocoder } = opts;
  const dispatcher = startDispatcher({ db: opts.db, channels: channels({
      mailer: opts.mailer,
      allowPrivate: opts.allowPrivate ?? false,
      userOf: (id) => findUserById(opts.db, id),
      db: opts.db,
      enqueueCommand: (c) => sendWithin(producer, opts.commandsTopic ?? Topics.commands, [{ key: c.imei, value: JSON.stringify(c) }], 5000, "the command"),
      addressAt: geocoder && (async (lat, lng) => (await geocoder.reverse({ lat, lng }))?.address ?? ""),
    }), logger: opts.logger, everyMs: opts.dispatchEveryMs, retentionMs: (opts.notificationsRetentionDays ?? 30) * 86_400_000 });

  return {
    seen: () => counters.seen,
    recorded: () => counters.recorded,
    deadLettered: deadLetters.deadLettered,
    sweep: () => sweeper.sweep(),
    remind: () => reminders.run(),
    dispatch: () => dispatcher.tick(),
    async close() {
      await Promise.all([sweeper.close(), reminders.close()]);
      await dispatcher.close();
      // Each leaves its own group; together, so a shutdown does not wait for two rebalances in a row.
      await Promise.all([consumer.close(), notices.close()]);
      await producer.close();
    },
  };
}
