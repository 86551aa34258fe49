import { and, asc, count, eq, inArray, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Queryable } from "./client.js";
import { isRowId } from "./row-id.js";

/*
 * The reads and writes every user-owned table repeats (geofences, routes, map icons,
 * templates, reports, …), written once. Every statement is scoped by the owner: another
 * user's id looks exactly like a missing one.
 */

/** A table whose rows belong to one user: an integer `id` and a `userId`. */
export type OwnedTable = PgTable & { id: PgColumn; userId: PgColumn };

type Row<T extends OwnedTable> = T["$inferSelect"];
type Insert<T extends OwnedTable> = Omit<T["$inferInsert"], "id" | "userId">;

export interface Page {
  limit: number;
  offset: number;
}

export interface OwnedRows<T extends OwnedTable> {
  /** The condition "this user's row `id`", for queries of the entity's own. */
  mine(userId: number, id: number): SQL;
  /** Every row of the user, by id; `where` narrows it. */
  list(db: Queryable, userId: number, where?: SQL): Promise<Row<T>[]>;
  /** One page of the user's rows by id, and how many the user has in all; `where` narrows both. */
  page(db: Queryable, userId: number, page: Page, where?: SQL): Promise<{ total: number; rows: Row<T>[] }>;
  /** The user's row, or undefined when it does not exist or is another user's. */
  find(db: Queryable, userId: number, id: number): Promise<Row<T> | undefined>;
  create(db: Queryable, userId: number, values: Insert<T>): Promise<Row<T>>;
  /** Sets the given columns on the user's row; undefined when it does not exist or is another user's. */
  update(db: Queryable, userId: number, id: number, values: Partial<Insert<T>>): Promise<Row<T> | undefined>;
  /** Deletes the user's row; false when it does not exist or is another user's. */
  destroy(db: Queryable, userId: number, id: number): Promise<boolean>;
  /**
   * Sets `active` on every listed row of the user, all or nothing: false (nothing
   * changed) when any id does not exist or is another user's.
   */
  setActive(db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean>;
}

export function ownedRows<T extends OwnedTable>(table: T): OwnedRows<T> {
  // drizzle's builders do not follow a generic table's column types; the rows are the table's.
  const t = table as unknown as PgTable & { id: PgColumn; userId: PgColumn; active: PgColumn };
  const anyDb = (db: Queryable) => db as unknown as Db;
  const owner = (userId: number, where?: SQL) => (where ? and(eq(t.userId, userId), where)! : eq(t.userId, userId));
  const mine = (userId: number, id: number) => and(eq(t.id, id), eq(t.userId, userId))!;

  return {
    mine,
    async list(db, userId, where) {
      return (await anyDb(db).select().from(t).where(owner(userId, where)).orderBy(asc(t.id))) as Row<T>[];
    },
    async page(db, userId, page, where) {
      const [rows, [counted]] = await Promise.all([
        anyDb(db).select().from(t).where(owner(userId, where)).orderBy(asc(t.id)).limit(page.limit).offset(page.offset),
        anyDb(db).select({ n: count() }).from(t).where(owner(userId, where)),
      ]);
      return { total: counted?.n ?? 0, rows: rows as Row<T>[] };
    },
    async find(db, userId, id) {
      if (!isRowId(id)) return undefined;
      const [row] = await anyDb(db).select().from(t).where(mine(userId, id));
      return row as Row<T> | undefined;
    },
    async create(db, userId, values) {
      const [row] = await anyDb(db)
        .insert(t)
        .values({ ...values, userId } as never)
        .returning();
      return row as Row<T>;
    },
    async update(db, userId, id, values) {
      if (!isRowId(id)) return undefined;
      const [row] = await anyDb(db)
        .update(t)
        .set(values as never)
        .where(mine(userId, id))
        .returning();
      return row as Row<T> | undefined;
    },
    async destroy(db, userId, id) {
      if (!isRowId(id)) return false;
      const gone = await anyDb(db).delete(t).where(mine(userId, id)).returning({ id: t.id });
      return gone.length > 0;
    },
    async setActive(db, userId, ids, active) {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0 || !wanted.every(isRowId)) return false;
      return db.transaction(async (tx) => {
        const these = and(eq(t.userId, userId), inArray(t.id, wanted));
        // In id order, so two requests locking overlapping sets cannot deadlock.
        const locked = await tx.select({ id: t.id }).from(t).where(these).orderBy(asc(t.id)).for("update");
        if (locked.length !== wanted.length) return false;
        await tx
          .update(t)
          .set({ active } as never)
          .where(these);
        return true;
      });
    },
  };
}
