import { rfidOf, type EnrichedPosition } from "@fleet/contracts";
import type { DriverSwitch, RfidSighting } from "@fleet/db";
import type { LiveStore } from "@fleet/live";

/** Makes the drivers whose RFIDs were read current on their devices; returns the pivots that changed. */
export type AssignDrivers = (sightings: readonly RfidSighting[]) => Promise<DriverSwitch[]>;

const newer = (a: RfidSighting, b: RfidSighting) => a.fixTime > b.fixTime;

/**
 * The newest RFID each device reported in a batch, among positions that are the device's
 * latest: a late older fix says who drove then, not who drives now.
 */
export function newestSightings(positions: readonly EnrichedPosition[]): RfidSighting[] {
  const byDevice = new Map<number, RfidSighting>();
  for (const p of positions) {
    if (!p.latest) continue;
    const rfid = rfidOf(p.attributes);
    if (rfid === undefined) continue;
    const s = { deviceId: p.deviceId, rfid, fixTime: p.fixTime };
    const held = byDevice.get(p.deviceId);
    if (!held || !newer(held, s)) byDevice.set(p.deviceId, s);
  }
  return [...byDevice.values()];
}

export interface DriverRfidOptions {
  /**
   * How long a device's last handled RFID spares it a query. Bounded so a driver created
   * (or a driver set by hand) while the same card stays in the reader is picked up again.
   */
  rememberMs?: number;
  now?: () => number;
}

/**
 * Switches a device's current driver when it reports another driver's RFID. A device that
 * keeps sending the card already handled costs no query; the others cost one UPDATE per
 * batch between them. Pollers of the live list are told about the devices that switched.
 */
export class DriverRfid {
  /** device id → the RFID last handled and when. */
  private readonly handled = new Map<number, { rfid: string; at: number }>();
  private readonly rememberMs: number;
  private readonly now: () => number;

  constructor(
    private readonly assign: AssignDrivers,
    private readonly live: Pick<LiveStore, "markChanged">,
    opts: DriverRfidOptions = {},
  ) {
    this.rememberMs = opts.rememberMs ?? 10 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** Resolves once the switches are stored and marked, so the batch's offsets may be committed. */
  async handle(positions: readonly EnrichedPosition[]): Promise<void> {
    const now = this.now();
    const wanted = newestSightings(positions).filter((s) => !this.remembers(s, now));
    if (wanted.length === 0) return;
    const switched = await this.assign(wanted);
    if (switched.length > 0) await this.live.markChanged(byDevice(switched));
    // Only after success: a failed batch is retried, and must not be skipped as handled.
    for (const s of wanted) this.handled.set(s.deviceId, { rfid: s.rfid, at: now });
  }

  private remembers(s: RfidSighting, now: number): boolean {
    const held = this.handled.get(s.deviceId);
    return held !== undefined && held.rfid === s.rfid && now - held.at < this.rememberMs;
  }
}

function byDevice(switches: readonly DriverSwitch[]): { deviceId: number; userIds: number[] }[] {
  const users = new Map<number, number[]>();
  for (const { deviceId, userId } of switches) {
    const list = users.get(deviceId);
    if (list) list.push(userId);
    else users.set(deviceId, [userId]);
  }
  return [...users].map(([deviceId, userIds]) => ({ deviceId, userIds }));
}
