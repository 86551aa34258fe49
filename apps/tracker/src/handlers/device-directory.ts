import type { OnOffSensor } from "@fleet/sensors";

/** What the tracker needs to know of a device; kept in memory, refreshed from the records store. */
export interface DeviceInfo {
  id: number;
  imei: string;
  userIds: number[];
  /** km/h at or above which the device counts as moving. */
  minMovingSpeed: number;
  /** The device's `detect_engine`: "gps" (motion) or the sensor type that tells; "gps" when absent. */
  detectEngine?: string;
  /** The device's first sensor of the `detectEngine` type, as far as engine detection reads it. */
  engineSensor?: OnOffSensor | null;
}

export interface DeviceSource {
  findByImei(imei: string): Promise<DeviceInfo | undefined>;
  /**
   * Devices whose record changed at or after `since`, with `removed` for deleted ones, and
   * the records store's clock read just before (the next call asks from it, less an overlap).
   */
  changedSince(since: Date): Promise<{ devices: (DeviceInfo & { removed: boolean })[]; readAt: Date }>;
}

const SYNC_OVERLAP_MS = 5000;

/**
 * imei → device, in memory. A miss asks the records store once (so a device added a
 * moment ago is found at once) and is remembered as unknown until the next sync, so a
 * flood from an unregistered device costs one query per sync interval, not per position.
 */
export class DeviceDirectory {
  private readonly known = new Map<string, DeviceInfo>();
  /** id → imei of `known`, so a device whose IMEI changed drops its old entry in O(1). */
  private readonly imeiOf = new Map<number, string>();
  private unknown = new Set<string>();
  private watermark = new Date(0);

  constructor(private readonly source: DeviceSource) {}

  async resolve(imeis: Iterable<string>): Promise<Map<string, DeviceInfo>> {
    const out = new Map<string, DeviceInfo>();
    const misses: string[] = [];
    for (const imei of imeis) {
      const d = this.known.get(imei);
      if (d) out.set(imei, d);
      else if (!this.unknown.has(imei)) misses.push(imei);
    }
    for (const imei of misses) {
      const d = await this.source.findByImei(imei);
      if (d) {
        this.remember(d);
        out.set(imei, d);
      } else this.unknown.add(imei);
    }
    return out;
  }

  private remember(d: DeviceInfo): void {
    const previous = this.imeiOf.get(d.id);
    if (previous !== undefined && previous !== d.imei && this.known.get(previous)?.id === d.id) this.known.delete(previous);
    this.known.set(d.imei, d);
    this.imeiOf.set(d.id, d.imei);
  }

  private forget(id: number, imei: string): void {
    // Only drop the IMEI if it is still this device's: a deleted device's IMEI may belong to a new one.
    if (this.known.get(imei)?.id === id) this.known.delete(imei);
    const previous = this.imeiOf.get(id);
    if (previous !== undefined && this.known.get(previous)?.id === id) this.known.delete(previous);
    this.imeiOf.delete(id);
  }

  /** Picks up added, edited and removed devices; also forgets misses so they are asked again. */
  async sync(): Promise<void> {
    // From the previous read's clock, a few seconds back: a transaction that commits after
    // that read carries its start time, at most the overlap earlier. Not from the newest row
    // seen: a fleet added in one burst would then be read again on every sync, for ever.
    const { devices, readAt } = await this.source.changedSince(new Date(this.watermark.getTime() - SYNC_OVERLAP_MS));
    for (const d of devices) {
      if (d.removed) this.forget(d.id, d.imei);
      else this.remember({ id: d.id, imei: d.imei, userIds: d.userIds, minMovingSpeed: d.minMovingSpeed, detectEngine: d.detectEngine, engineSensor: d.engineSensor });
    }
    if (readAt > this.watermark) this.watermark = readAt;
    this.unknown = new Set();
  }
}
