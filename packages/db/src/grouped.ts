import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, isNull, ne, not, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Queryable, Tx } from "./client.js";
import { RefusedError } from "./errors.js";
import { ownedRows, type OwnedTable } from "./owned.js";
import { isRowId } from "./row-id.js";
import { containing, escapeLike } from "./like.js";

/*
 * A user's groups of some kind of record (geofences, devices, routes, map icons), written
 * once: each group is one user's titled row, and its members point at it through a
 * nullable group column that the group's deletion sets to null. Every statement is scoped
 * by the owner, so another user's group or member looks exactly like a missing one.
 */

/** A table of one user's groups: owned rows with a title. */
export type GroupTable = OwnedTable & { title: PgColumn };

/** Where a group's members are: their rows, the id clients name them by, their owner and their group. */
export interface Members {
  table: PgTable;
  id: PgColumn;
  userId: PgColumn;
  groupId: PgColumn;
  /**
   * Locks the user's members matching `where` (a condition on the columns above) until the
   * transaction ends, in id order, and returns their ids. Defaults to the member rows
   * themselves; devices lock their device rows, as every device write does.
   */
  lock?(tx: Tx, userId: number, where: SQL): Promise<number[]>;
}

export interface GroupPage {
  /** Part of the title to look for, any case; LIKE wildcards in it match themselves. */
  search?: string;
  /** Exact matches: the group's id, its title (any case). */
  filter?: { id?: number; title?: string };
  sortBy: "id" | "title";
  sort: "asc" | "desc";
  limit: number;
  offset: number;
}

export interface GroupInput {
  /** Undefined keeps the title (on update). */
  title?: string;
  /** The group's complete membership; undefined keeps it (on update). */
  memberIds?: readonly number[];
}

/** A written group, and the members a client now shows differently: those that joined or left, and every member when the title changed. */
export interface GroupWrite<G> {
  group: G;
  changed: number[];
}

export interface Groups<G> {
  /** The user's groups, by id. */
  list(db: Queryable, userId: number): Promise<G[]>;
  /** One page of the user's groups, and how many match in all. */
  page(db: Queryable, userId: number, page: GroupPage): Promise<{ total: number; rows: G[] }>;
  /**
   * Share-locks the user's group until the transaction ends, so a member written next
   * cannot point at a group deleted meanwhile (a foreign key error, a 500). Null or
   * undefined (no group) passes.
   * @throws RefusedError `{groupId: unknown}` when the group is not the user's.
   */
  hold(tx: Tx, userId: number, groupId: number | null | undefined): Promise<void>;
  /**
   * Creates the user's group, moving the listed members into it, in one transaction.
   * @throws RefusedError `{<memberKey>: unknown}` when any listed id is not one of the user's members.
   */
  create(db: Db, userId: number, input: GroupInput & { title: string }): Promise<GroupWrite<G>>;
  /**
   * Renames the user's group and/or replaces its members, in one transaction; undefined
   * when the group does not exist or is another user's.
   * @throws RefusedError `{<memberKey>: unknown}` when any listed id is not one of the user's members.
   */
  update(db: Db, userId: number, groupId: number, input: GroupInput): Promise<GroupWrite<G> | undefined>;
  /** Deletes the user's group, its members becoming ungrouped; their ids, or undefined when the group does not exist or is another user's. */
  destroy(db: Db, userId: number, groupId: number): Promise<number[] | undefined>;
}

/** The table's field name of `column`, as drizzle's `set` takes it. */
function fieldOf(table: PgTable, column: PgColumn): string {
  const found = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!found) throw new Error(`${column.name} is not a column of the table`);
  return found[0];
}

/** The groups in `groups` whose members are `members`; a refusal names the members `memberKey` (`geofenceIds`). */
export function groupsOf<T extends GroupTable>(groups: T, members: Members, memberKey: string): Groups<T["$inferSelect"]> {
  type G = T["$inferSelect"];
  const owned = ownedRows(groups);
  // drizzle's builders do not follow a generic table's column types; the rows are the table's.
  const g = groups as unknown as PgTable & { id: PgColumn; userId: PgColumn; title: PgColumn };
  const m = members;
  // `set` takes the table's field names, not its column names.
  const groupField = fieldOf(m.table, m.groupId);
  const unknownMembers = () => new RefusedError({ [memberKey]: { kind: "unknown", many: true } });

  const lockMembers =
    m.lock ??
    (async (tx: Tx, userId: number, where: SQL) => {
      const rows = await tx.select({ id: m.id }).from(m.table).where(and(eq(m.userId, userId), where)).orderBy(asc(m.id)).for("update");
      return rows.map((r) => r.id as number);
    });

  /** The user's group, locked until the transaction ends (a concurrent update or destroy waits); undefined when it is not the user's. */
  async function lockGroup(tx: Tx, userId: number, groupId: number): Promise<G | undefined> {
    const [group] = await tx.select().from(g).where(owned.mine(userId, groupId)).for("update");
    return group as G | undefined;
  }

  /**
   * Makes `ids` the group's members and ungroups its others; returns the ids that moved.
   * The caller holds the group's row lock, so no member joins it meanwhile; the members
   * touched are locked in id order, so concurrent writes cannot deadlock.
   */
  async function setMembers(tx: Tx, userId: number, groupId: number, ids: readonly number[]): Promise<number[]> {
    const wanted = [...new Set(ids)];
    if (!wanted.every(isRowId)) throw unknownMembers();
    const listed = wanted.length > 0 ? inArray(m.id, wanted) : undefined;
    const inGroup = eq(m.groupId, groupId);
    const found = new Set(await lockMembers(tx, userId, listed ? or(listed, inGroup)! : inGroup));
    if (wanted.some((id) => !found.has(id))) throw unknownMembers();
    const mine = eq(m.userId, userId);
    const joined = listed
      ? await tx
          .update(m.table)
          .set({ [groupField]: groupId } as never)
          .where(and(mine, listed, or(isNull(m.groupId), ne(m.groupId, groupId))))
          .returning({ id: m.id })
      : [];
    const left = await tx
      .update(m.table)
      .set({ [groupField]: null } as never)
      .where(and(mine, inGroup, listed ? not(listed) : undefined))
      .returning({ id: m.id });
    return [...joined, ...left].map((r) => r.id as number).sort((a, b) => a - b);
  }

  async function memberIds(tx: Tx, userId: number, groupId: number): Promise<number[]> {
    const rows = await tx
      .select({ id: m.id })
      .from(m.table)
      .where(and(eq(m.userId, userId), eq(m.groupId, groupId)))
      .orderBy(asc(m.id));
    return rows.map((r) => r.id as number);
  }

  return {
    list: (db, userId) => owned.list(db, userId),

    async page(db, userId, page) {
      const search = page.search?.trim();
      const { id, title } = page.filter ?? {};
      const where = and(
        eq(g.userId, userId),
        search ? ilike(g.title, containing(search)) : undefined,
        id === undefined ? undefined : isRowId(id) ? eq(g.id, id) : sql`false`,
        title === undefined ? undefined : ilike(g.title, escapeLike(title)),
      );
      // Titles sort by lower case: the same order under any collation (PGlite's is C).
      const column = page.sortBy === "title" ? sql`lower(${g.title})` : g.id;
      const direction = page.sort === "desc" ? desc : asc;
      const [rows, [counted]] = await Promise.all([
        // id breaks ties between equal titles, so pages do not overlap.
        db.select().from(g).where(where).orderBy(direction(column), direction(g.id)).limit(page.limit).offset(page.offset),
        db.select({ n: count() }).from(g).where(where),
      ]);
      return { total: counted?.n ?? 0, rows: rows as G[] };
    },

    async hold(tx, userId, groupId) {
      if (groupId == null) return;
      const [held] = isRowId(groupId) ? await tx.select({ id: g.id }).from(g).where(owned.mine(userId, groupId)).for("share") : [];
      if (!held) throw new RefusedError({ groupId: { kind: "unknown" } });
    },

    create(db, userId, input) {
      return db.transaction(async (tx) => {
        const group = await owned.create(tx, userId, { title: input.title } as never);
        const changed = input.memberIds ? await setMembers(tx, userId, (group as { id: number }).id, input.memberIds) : [];
        return { group, changed };
      });
    },

    async update(db, userId, groupId, input) {
      if (!isRowId(groupId)) return undefined;
      return db.transaction(async (tx) => {
        // Locked first: a concurrent destroy waits, and no member moves into a group being deleted.
        const before = await lockGroup(tx, userId, groupId);
        if (!before) return undefined;
        const moved = input.memberIds ? await setMembers(tx, userId, groupId, input.memberIds) : [];
        const retitled = input.title !== undefined && input.title !== (before as { title: string }).title;
        if (!retitled) return { group: before, changed: moved };
        const group = (await owned.update(tx, userId, groupId, { title: input.title } as never))!;
        return { group, changed: [...new Set([...moved, ...(await memberIds(tx, userId, groupId))])].sort((a, b) => a - b) };
      });
    },

    async destroy(db, userId, groupId) {
      if (!isRowId(groupId)) return undefined;
      return db.transaction(async (tx) => {
        if (!(await lockGroup(tx, userId, groupId))) return undefined;
        // The members in id order before the delete's own updates take them in any order.
        const former = await lockMembers(tx, userId, eq(m.groupId, groupId));
        await owned.destroy(tx, userId, groupId);
        return former;
      });
    },
  };
}
