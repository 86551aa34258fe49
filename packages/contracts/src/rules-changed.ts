import { Type, type Static } from "@sinclair/typebox";

/**
 * A notice on `rules.changed`, written by the api after a commit that changes what the rules
 * service checks: a user's alerts, geofences, custom events, drivers or settings (`userIds`),
 * or a device's record, sensors or users (`deviceIds`). Every rules instance reads every
 * notice and drops what it keeps of those users and devices; it carries no rule itself, so
 * a lost or repeated notice costs at most a stale cache until the next refresh, or a reload.
 */
export const RulesChangedSchema = Type.Object({
  userIds: Type.Array(Type.Integer({ minimum: 1 })),
  deviceIds: Type.Array(Type.Integer({ minimum: 1 })),
});
export type RulesChanged = Static<typeof RulesChangedSchema>;
