import { customType, timestamp } from "drizzle-orm/pg-core";

/** Every timestamp is a `timestamptz`: an instant, read as a Date and shown in the user's timezone by the API. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Bytes as they are: node-postgres hands back a Buffer, PGlite a Uint8Array. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
