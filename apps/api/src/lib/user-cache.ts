import type { NoticeHandlers } from "@fleet/db";
import type { User } from "@fleet/db";

/** The users behind api hashes, for authentication. */
export interface UserCache extends NoticeHandlers {
  /** The usable user whose api hash this is, or undefined. */
  byApiHash(hash: string): Promise<User | undefined>;
  /** These users changed (this process's own writes, heard before their notices). */
  forgetUsers(userIds: readonly number[]): void;
}

/**
 * Every request authenticates by its api hash, and looking it up was a database round
 * trip per request: most of an empty poll's time, and the database's busiest query under
 * polling clients. Users are kept by hash once found, and dropped by the database's own
 * notice of any change to their row (a new hash, a password, a setting, a deactivation,
 * a deletion: users_notify_changed), which reaches every api instance at commit; the
 * instance that made the change drops them at once too (onUsersChanged), so its own next
 * request does not race the notice.
 *
 * Nothing is kept while the notices are not heard (`listening` false, or no listener at
 * all), a lost listener drops everything, and a lookup that started before a notice or
 * a gap keeps nothing: its row may predate the change. Unknown hashes are not kept, so a
 * user created a moment ago is found at once.
 */
export function userCache(find: (hash: string) => Promise<User | undefined>, opts: { maxUsers: number; listening(): boolean }): UserCache {
  const users = new Map<string, User>();
  /** Counts notices and gaps: a lookup keeps its answer only if none came while it ran. */
  let changes = 0;

  return {
    async byApiHash(hash) {
      const kept = users.get(hash);
      if (kept) return kept;
      const startedAt = changes;
      const user = await find(hash);
      if (user && startedAt === changes && opts.listening()) {
        // A crude bound: past it, every user is looked up once more.
        if (users.size >= opts.maxUsers) users.clear();
        users.set(hash, user);
      }
      return user;
    },
    forgetUsers(userIds) {
      changes++;
      const ids = new Set(userIds);
      for (const [hash, user] of users) if (ids.has(user.id)) users.delete(hash);
    },
    notice(hash) {
      changes++;
      users.delete(hash);
    },
    gap() {
      changes++;
      users.clear();
    },
  };
}
