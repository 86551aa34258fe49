/**
 * Numbered schema migrations, applied in order by `migrate()` and recorded in
 * `schema_migrations`. Kept as TypeScript rather than .sql files because `tsc`
 * does not copy .sql into dist.
 *
 * ClickHouse has no transactional DDL: a crash between a statement and its
 * bookkeeping row re-runs the statement next start, and two instances starting
 * together may both run it. So every statement must be idempotent
 * (`IF NOT EXISTS`, `IF EXISTS`), and each migration holds exactly one statement
 * because the HTTP interface takes one statement per request.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** The statement, with every table qualified by the (already validated) database name. */
  readonly sql: (db: string) => string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "positions",
    // ReplacingMergeTree on (device_id, fix_time, id): a replayed batch writes rows
    // with the same key, which FINAL collapses on read (and merges drop later).
    // fix_time leads the partition key and sits in the sort key, so duplicates
    // never span partitions.
    sql: (db) => `
CREATE TABLE IF NOT EXISTS ${db}.positions
(
    id          UInt64,
    device_id   UInt64,
    unique_id   String,
    protocol    LowCardinality(String),
    fix_time    DateTime64(3, 'UTC'),
    server_time DateTime64(3, 'UTC'),
    latitude    Float64,
    longitude   Float64,
    altitude    Float64,
    course      Float32,
    speed       Float32 COMMENT 'km/h',
    distance    Float64 COMMENT 'km from the previous position',
    valid       UInt8,
    attributes  String COMMENT 'JSON object of the attribute map'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(fix_time)
ORDER BY (device_id, fix_time, id)`,
  },
  {
    version: 2,
    name: "positions_engine_on",
    // What the tracker decided at each fix, so engine time can be summed again from history
    // when the live store lost its running counter. Rows from before read 0 (engine off).
    sql: (db) => `ALTER TABLE ${db}.positions ADD COLUMN IF NOT EXISTS engine_on UInt8 DEFAULT 0 AFTER valid`,
  },
];
