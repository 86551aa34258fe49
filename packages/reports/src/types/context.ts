import type { HistoryRow, UserUnits } from "@fleet/contracts";
import type { GeofenceShape } from "@fleet/geo";
import type { Segmentation } from "@fleet/trips";
import type { DurationCell } from "../document.js";

/** How a report speaks to its user: their units and clock, and the report's own settings. */
export interface ReportContext {
  units: UserUnits;
  /** An instant on the user's clock, "YYYY-MM-DD HH:MM:SS". */
  time(ms: number): string;
  /** A length of time: its text as the vendor's screens show it ("1h 5min"), kept with its length for spreadsheets. */
  duration(ms: number): DurationCell;
  /** The report's speed limit in km/h (converted from the user's unit), for the types that count overspeeds. */
  speedLimitKmh: number | null;
  /**
   * The instant a date ("YYYY-MM-DD") and time ("HH:MM") on the user's clock name, as
   * UserClock.toInstant reads them; undefined for none. Only the types cut by the user's days
   * or hours (15, 28) need it: a day is not always 24 hours long where the clock changes.
   */
  localInstant?(date: string, time: string): number | undefined;
  /** A driver's name from the card (RFID) their device read, for the types grouped by driver; the card itself without it. */
  driverName?(key: string): string;
  /**
   * The place a position is shown as when the report asks for places (show_addresses,
   * zones_instead): a geofence's name or an address; "lat, lng" when absent or when it
   * answers undefined or "".
   */
  place?(p: { latitude: number; longitude: number }): string | undefined;
}

/** An event of the device in the period, as the events store keeps it. */
export interface ReportEvent {
  /** Epoch ms of the position it was found at. */
  time: number;
  /** The stored type ("overspeed", "geofence_in", "custom", ...). */
  type: string;
  /** In the owner's language, as get_events shows it. */
  message: string;
  latitude: number;
  longitude: number;
  speedKmh: number;
}

/** A geofence a report is about (types 7, 15, 20, 28): its name and shape. */
export interface ReportGeofence {
  id: number;
  name: string;
  shape: GeofenceShape;
}

/** What the report read about one device: who it is and its track over the period, cut into drives and stops. */
export interface DeviceTrack {
  device: {
    id: number;
    name: string;
    plateNumber: string;
    /** The least rise of the fuel level that is a filling, in the fuel sensor's unit (the device's min_fuel_fillings; 10 when not given, its default). */
    minFuelFillings?: number;
    /** The least drop of the fuel level that is a theft, in the fuel sensor's unit (min_fuel_thefts; 10 when not given). */
    minFuelThefts?: number;
  };
  track: Segmentation;
  /** The fuel sensor's unit when the device has one (fuel columns then show). */
  fuelUnit: string | null;
  /**
   * Every stored position in the period, positions of one instant included (the track keeps
   * the first of them): read only for object history, which lists them all.
   */
  rows?: readonly HistoryRow[];
  /** The device's events in the period, oldest first: read only for the types that list them. */
  events?: readonly ReportEvent[];
  /** The device's sensors as the types that list their readings read them (a report cannot read sensor definitions itself). */
  readings?: SensorReadings;
}

/** How to read a device's sensors at a fix; a sensor the device lacks is left out. Null is "no reading at this fix". */
export interface SensorReadings {
  /** The fuel level, in `DeviceTrack.fuelUnit`. */
  fuel?: (row: HistoryRow) => number | null;
  temperature?: (row: HistoryRow) => number | null;
  /** The temperature sensor's unit ("°C"). */
  temperatureUnit?: string;
  /** Whether the seatbelt is fastened; without it the `seatbelt` attribute is read (see rag.ts). */
  seatbelt?: (row: HistoryRow) => boolean | null;
}

/** The report's period and its type's name, for the document's subtitle. */
export interface ReportHeading {
  title: string;
  typeName: string;
  fromMs: number;
  toMs: number;
}

export const subtitle = (h: ReportHeading, ctx: ReportContext): string[] => [h.typeName, `${ctx.time(h.fromMs)} – ${ctx.time(h.toMs)}`];
