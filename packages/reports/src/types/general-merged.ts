import type { Cell, ReportDocument } from "../document.js";
import { subtitle, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, type Field } from "./fields.js";
import { combinedFigures, totalsOf, type DeviceFigures } from "./totals.js";

interface DeviceRow {
  name: string;
  values: ReadonlyMap<string, Cell>;
}

/**
 * Type 2, general information (merged): type 1's totals as one table, a row per device, the
 * footer their combination (see `combinedFigures`). The columns are the footer's labels, so a
 * fuel column shows when any device has a sensor in that unit, empty for the others.
 */
export function generalInformationMerged(heading: ReportHeading, devices: readonly DeviceFigures[], ctx: ReportContext): ReportDocument {
  const figures = devices.map((d) => d.figures);
  const rows: DeviceRow[] = devices.map((d) => ({ name: d.device.name, values: new Map(totalsOf(d.figures, ctx).map((x) => [x.label, x.value])) }));
  const fields: Field<DeviceRow>[] = [
    { column: { title: "Device" }, cell: (r) => r.name },
    ...totalsOf(combinedFigures(figures), ctx).map(
      (x): Field<DeviceRow> => ({ column: { title: x.label, decimals: x.decimals }, cell: (r) => r.values.get(x.label) ?? null, total: () => x.value }),
    ),
  ];
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: [{ heading: "All devices", tables: [fieldTable(fields, rows, "No devices in the report.")] }],
  };
}

/**
 * Type 16, general information (merged) custom: the same table. The spec gives it type 2's
 * fields and says nothing of what else sets it apart, so nothing does yet.
 */
export const generalInformationMergedCustom = generalInformationMerged;
