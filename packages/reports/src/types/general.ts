import type { ReportDocument, ReportSection } from "../document.js";
import { subtitle, type ReportContext, type ReportHeading } from "./context.js";
import { totalsOf, type DeviceFigures, type TrackFigures } from "./totals.js";

/**
 * One device's totals over the period, as general information (type 1) lists them and drives
 * and stops (type 3) heads its table with: the same cut as get_history's, so the screens and
 * the reports never disagree.
 */
export const figuresSummary = (f: TrackFigures, ctx: ReportContext): ReportSection["summary"] => totalsOf(f, ctx).map((x) => [x.label, x.value, x.decimals] as const);

/** Type 1, general information: a section of totals per device. */
export function generalInformation(heading: ReportHeading, devices: readonly DeviceFigures[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: devices.map((d) => ({ heading: d.device.name, summary: figuresSummary(d.figures, ctx), tables: [] })),
  };
}
