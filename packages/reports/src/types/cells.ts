import type { UserUnits } from "@fleet/contracts";
import type { ReportColumn } from "../document.js";
import type { ReportContext } from "./context.js";

/*
 * How every report type writes the same kind of figure, so that a speed or a place reads the
 * same in each of them.
 */

/** km/h over a time; 0 for no time, so a drive without duration shows no speed rather than an infinite one. */
export const averageKmh = (km: number, ms: number): number => (ms > 0 ? km / (ms / 3_600_000) : 0);

/** A speed in the user's unit, whole, as a speedometer shows it. */
export const shownSpeed = (units: UserUnits, kmh: number): number => Math.round(units.speed(kmh));

/** A place as "lat, lng" to 6 decimals (about 10 cm); text, so no spreadsheet rounds or sums it. */
/**
 * A position as a report shows it: its place (a geofence's name or an address, when the report
 * asks for them and the api found one: ctx.place), else "lat, lng" to 6 decimals.
 */
export const positionText = (p: { latitude: number; longitude: number }, ctx: Pick<ReportContext, "place">): string => ctx.place?.(p) || `${p.latitude.toFixed(6)}, ${p.longitude.toFixed(6)}`;

export const distanceColumn = (units: UserUnits): ReportColumn => ({ title: `Distance (${units.distanceUnit})`, decimals: 2 });

/** A speed column ("Top speed (kph)"); its cells are whole (`shownSpeed`). */
export const speedColumn = (name: string, units: UserUnits): ReportColumn => ({ title: `${name} (${units.speedUnit})`, decimals: 0 });

export const fuelColumn = (unit: string): ReportColumn => ({ title: `Fuel consumption (${unit})`, decimals: 2 });

/** A title with its unit, "Fuel level (l)"; a sensor without a unit shows none. */
export const withUnit = (title: string, unit: string | null | undefined): string => (unit?.trim() ? `${title} (${unit.trim()})` : title);
