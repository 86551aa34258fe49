import { sendWithin, type BusProducer, type OutgoingMessage } from "@fleet/bus";
import { Topics, type RulesChanged } from "@fleet/contracts";

/*
 * The rules service caches, per device, the records it checks positions against (alerts,
 * geofences, custom events, drivers, the owners' settings, the device and its sensors). A
 * write that changes one of them tells it on `rules.changed`, after its commit: "drop what
 * you keep of these users and devices". The notice carries no rule, so a lost one costs a
 * stale cache until the rules service refreshes, never a wrong record; that is why a failed
 * send is logged and the user's request, whose write has committed, still succeeds.
 */

/** The bus side: sends one notice; rejects when the bus did not take it in time. */
export interface RulesNoticeSender {
  send(notice: RulesChanged): Promise<void>;
}

export interface BusRulesNoticeOptions {
  producer: BusProducer;
  /**
   * How long a request waits for the bus. Default 2 s: the user waits for it, and a notice
   * that does not arrive only leaves a cache stale, so it is not worth a command's 5 s.
   */
  sendTimeoutMs?: number;
  /** Default `rules.changed`; tests use their own. */
  topic?: string;
}

/**
 * One key for every notice: they are a person's edits, few enough for one partition, and
 * one partition keeps them in the order they were sent to whoever reads the topic.
 */
export const RULES_NOTICE_KEY = "rules";

/** Device ids per message: edit_setup can name every device a user sees, and a Kafka record must stay well under 1 MiB. */
export const IDS_PER_NOTICE = 10_000;

/** The notice as bus messages: the users in the first, the devices in chunks of IDS_PER_NOTICE. */
export function noticeMessages(notice: RulesChanged): OutgoingMessage[] {
  const chunks: number[][] = [];
  for (let i = 0; i < notice.deviceIds.length; i += IDS_PER_NOTICE) chunks.push(notice.deviceIds.slice(i, i + IDS_PER_NOTICE));
  if (chunks.length === 0) chunks.push([]);
  return chunks.map((deviceIds, i) => {
    const part: RulesChanged = { userIds: i === 0 ? notice.userIds : [], deviceIds };
    return { key: RULES_NOTICE_KEY, value: JSON.stringify(part) };
  });
}

export function busRulesNotices(opts: BusRulesNoticeOptions): RulesNoticeSender {
  const timeoutMs = opts.sendTimeoutMs ?? 2000;
  const topic = opts.topic ?? Topics.rulesChanged;
  return {
    send: (notice) => sendWithin(opts.producer, topic, noticeMessages(notice), timeoutMs, "the notice"),
  };
}

/** What routes and the device-change listener call; neither method ever rejects for the notice's sake. */
export interface RulesNotices {
  /** Sends the notice (nothing when both lists are empty); a failure is logged, not thrown. */
  changed(notice: Partial<RulesChanged>): Promise<void>;
  /**
   * `write`'s result, once it resolved and the notice that the user's rule records changed
   * was sent. A write that rejects (refused, not found: nothing committed) sends none.
   */
  afterUserWrite<T>(userId: number, write: Promise<T>): Promise<T>;
}

/** Ids a log line names at most: the count says the rest. */
const LOGGED_IDS = 20;

/** `sender` undefined (an API built without a bus, in tests of other routes): nothing is sent. */
export function rulesNotices(sender: RulesNoticeSender | undefined, log: { warn(obj: object, msg: string): void }): RulesNotices {
  async function changed(notice: Partial<RulesChanged>): Promise<void> {
    const userIds = [...new Set(notice.userIds ?? [])];
    const deviceIds = [...new Set(notice.deviceIds ?? [])];
    if (!sender || (userIds.length === 0 && deviceIds.length === 0)) return;
    try {
      await sender.send({ userIds, deviceIds });
    } catch (err) {
      // Ids only: they tell an operator whose cache may be stale, and are no secret.
      log.warn(
        { err, userIds: userIds.slice(0, LOGGED_IDS), deviceIds: deviceIds.slice(0, LOGGED_IDS), users: userIds.length, devices: deviceIds.length },
        "could not send a rules.changed notice; the rules service may check stale records until it refreshes",
      );
    }
  }
  return {
    changed,
    async afterUserWrite(userId, write) {
      const result = await write;
      await changed({ userIds: [userId] });
      return result;
    },
  };
}
