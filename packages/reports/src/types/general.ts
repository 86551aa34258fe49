import type { ReportDocument, ReportSection } from "../document.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { totalsOf, trackFigures, type DeviceFigures } from "./totals.js";

/**
 * One device's totals over the period, as general information (type 1) lists them and drives
 * and stops (type 3) heads its table with: the same cut as get_history's, so the screens and
 * the reports never disagree.
 */
export function deviceTotals(t: DeviceTrack, ctx: ReportContext): ReportSection["summary"] {
  return totalsOf(trackFigures(t, ctx.speedLimitKmh), ctx).map((x) => [x.label, x.value] as const);
}

/** Type 1, general information: a section of totals per device. */
export function generalInformation(heading: ReportHeading, devices: readonly DeviceFigures[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: devices.map((d) => ({ heading: d.device.name, summary: totalsOf(d.figures, ctx).map((x) => [x.label, x.value] as const), tables: [] })),
  };
}
