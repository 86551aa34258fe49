import type { UserUnits } from "@fleet/contracts";
import type { Segmentation } from "@fleet/trips";

/** How a report speaks to its user: their units and clock, and the report's own settings. */
export interface ReportContext {
  units: UserUnits;
  /** An instant on the user's clock, "YYYY-MM-DD HH:MM:SS". */
  time(ms: number): string;
  /** A length of time as the vendor's screens show it ("1h 5min"). */
  duration(ms: number): string;
  /** The report's speed limit in km/h (converted from the user's unit), for the types that count overspeeds. */
  speedLimitKmh: number | null;
}

/** What the report read about one device: who it is and its track over the period, cut into drives and stops. */
export interface DeviceTrack {
  device: { id: number; name: string; plateNumber: string };
  track: Segmentation;
  /** The fuel sensor's unit when the device has one (fuel columns then show). */
  fuelUnit: string | null;
}

/** The report's period and its type's name, for the document's subtitle. */
export interface ReportHeading {
  title: string;
  typeName: string;
  fromMs: number;
  toMs: number;
}

export const subtitle = (h: ReportHeading, ctx: ReportContext): string[] => [h.typeName, `${ctx.time(h.fromMs)} – ${ctx.time(h.toMs)}`];
