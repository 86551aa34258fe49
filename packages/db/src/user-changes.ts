import type { Db, Queryable } from "./client.js";

export type UserChangeListener = (userIds: readonly number[]) => void;

/*
 * A changed user row is announced twice. Every process hears the database's notice
 * (users_notify_changed, at commit, on USERS_CHANGED_CHANNEL), and the process that made
 * the change also hears it here, at once, from the write function: its own next request
 * must not wait for the notice to arrive over another connection.
 */
const listeners = new WeakMap<object, UserChangeListener>();

/** The one listener for `db`'s own committed user changes; registering again replaces it. */
export function onUsersChanged(db: Db, listener: UserChangeListener): void {
  listeners.set(db, listener);
}

/** Tells `q`'s listener these users changed; a transaction has none (its notice comes at commit). */
export function announceUsersChanged(q: Queryable, userIds: readonly number[]): void {
  if (userIds.length > 0) listeners.get(q)?.(userIds);
}
