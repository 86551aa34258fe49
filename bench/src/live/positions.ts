/**
 * Positions for POST /insert (a JSON array in the spec's field names), written as text
 * directly: the load phase makes 20 of these bodies a second and should cost the bench
 * little CPU. Every device's fixTime only goes up (the tracker ignores an older fix).
 */

/** A device's starting point, spread over a ~2° square around Vilnius. */
export function homeOf(n: number): { lat: number; lng: number } {
  return { lat: 54 + ((n * 7919) % 2000) / 1000, lng: 24 + ((n * 104729) % 2000) / 1000 };
}

/** Per-device fix times that only go up, also when a device gets two fixes in one millisecond. */
export class FixClock {
  private readonly last = new Map<string, number>();

  next(imei: string, now = Date.now()): number {
    const t = Math.max(now, (this.last.get(imei) ?? 0) + 1);
    this.last.set(imei, t);
    return t;
  }
}

export interface Fix {
  imei: string;
  lat: number;
  lng: number;
  fixTime: number;
  speed?: number;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function fixJson(f: Fix): string {
  return (
    `{"uniqueId":"${f.imei}","protocol":"osmand","latitude":${r6(f.lat)},"longitude":${r6(f.lng)},"altitude":112,"speed":${f.speed ?? 27},"course":181,` +
    `"fixTime":${f.fixTime},"attributes":{"sat":10,"ignition":true,"motion":true,"power":12.77,"battery":98}}`
  );
}

export const batchJson = (fixes: readonly Fix[]): string => `[${fixes.map(fixJson).join(",")}]`;

/**
 * Fleet traffic: devices take turns, each fix moves its device ~11 m north of its last.
 * `take(n)` gives the next n fixes.
 */
export class Traffic {
  private cursor = 0;
  private readonly steps: Uint32Array;

  constructor(
    private readonly imeis: readonly string[],
    private readonly clock: FixClock,
    /** Offsets the devices' home points, so two fleets do not share coordinates. */
    private readonly homeBase = 0,
  ) {
    this.steps = new Uint32Array(imeis.length);
  }

  take(n: number, now = Date.now()): Fix[] {
    const out: Fix[] = [];
    for (let k = 0; k < n; k++) {
      const d = this.cursor;
      this.cursor = (this.cursor + 1) % this.imeis.length;
      const step = ++this.steps[d]!;
      const { lat, lng } = homeOf(this.homeBase + d);
      const imei = this.imeis[d]!;
      out.push({ imei, lat: lat + (step % 10_000) * 1e-4, lng, fixTime: this.clock.next(imei, now) });
    }
    return out;
  }
}
