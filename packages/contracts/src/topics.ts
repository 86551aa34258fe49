/** Every bus topic in one place, so producers and consumers cannot drift apart. */
export const Topics = {
  positionsRaw: "positions.raw",
  positionsEnriched: "positions.enriched",
  /** Messages of positions.raw the tracker could never process, with why (DeadLetterSchema). */
  positionsDead: "positions.dead",
  /** Messages of positions.enriched the rules service could never process (DeadLetterSchema). */
  eventsDead: "events.dead",
  commands: "commands",
  /** Notices that users' or devices' rule records changed (RulesChangedSchema), for the rules service's cache. */
  rulesChanged: "rules.changed",
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];

/** Consumer groups, one per scalable app. */
export const ConsumerGroups = {
  tracker: "fleet-tracker",
  rules: "fleet-rules",
} as const;
