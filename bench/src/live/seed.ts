import { devices, hashPassword, newApiHash, openDb, userDevices, users, type DbConfig } from "@fleet/db";
import { imeiOf } from "../fixtures.js";

/** A user the bench calls the API as, and the devices it owns. */
export interface Account {
  userId: number;
  email: string;
  apiHash: string;
  deviceIds: number[];
  imeis: string[];
}

export interface Population {
  /** The measured account: BENCH_LIVE_DEVICES devices. */
  measured: Account;
  /** The polling clients, whose devices take the load. */
  clients: Account[];
}

export interface PopulationShape {
  devices: number;
  clients: number;
  devicesPerClient: number;
}

/** Client devices' IMEIs start here, well clear of the measured account's. */
export const CLIENT_IMEI_BASE = 500_000_000;

const CHUNK = 1000;
const chunks = <T>(xs: readonly T[]) => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Creates the users and devices straight in the database, before the app starts (PGlite
 * has one process at a time): rows as add_device would make them (the device, its owner's
 * user_devices row), in bulk instead of 20,000 API calls. One password hash serves every
 * user (scrypt is slow on purpose); each gets an api hash of its own.
 */
export async function seedPopulation(config: DbConfig, shape: PopulationShape, log: (line: string) => void): Promise<Population> {
  const handle = await openDb(config);
  try {
    await handle.migrate();
    const db = handle.db;
    const passwordHash = await hashPassword("bench-live-password");
    const emails = ["bench-live-measured@fleet.local", ...Array.from({ length: shape.clients }, (_, i) => `bench-live-client-${i}@fleet.local`)];
    const created = await db
      .insert(users)
      .values(emails.map((email) => ({ email, passwordHash, apiHash: newApiHash() })))
      .returning({ id: users.id, email: users.email, apiHash: users.apiHash });
    const byEmail = new Map(created.map((u) => [u.email, u]));
    const accountOf = (email: string, imeis: string[]): Account => {
      const u = byEmail.get(email)!;
      return { userId: u.id, email, apiHash: u.apiHash, deviceIds: [], imeis };
    };
    const measured = accountOf(emails[0]!, Array.from({ length: shape.devices }, (_, i) => imeiOf(i)));
    const clients = emails.slice(1).map((email, c) =>
      accountOf(email, Array.from({ length: shape.devicesPerClient }, (_, j) => imeiOf(CLIENT_IMEI_BASE + c * shape.devicesPerClient + j))),
    );
    log(`  ${created.length} users; inserting ${shape.devices + shape.clients * shape.devicesPerClient} devices`);

    const all = [measured, ...clients].flatMap((a) => a.imeis.map((imei, i) => ({ account: a, imei, name: a === measured ? `Measured ${i + 1}` : `Client ${a.userId} van ${i + 1}` })));
    for (const part of chunks(all)) {
      const rows = await db
        .insert(devices)
        .values(part.map((p) => ({ userId: p.account.userId, name: p.name, imei: p.imei })))
        .returning({ id: devices.id, imei: devices.imei });
      const idOf = new Map(rows.map((r) => [r.imei, r.id]));
      for (const p of part) p.account.deviceIds.push(idOf.get(p.imei)!);
      await db.insert(userDevices).values(part.map((p) => ({ userId: p.account.userId, deviceId: idOf.get(p.imei)! })));
    }
    return { measured, clients };
  } finally {
    await handle.close();
  }
}
