/** Rows of many devices (sensors, services), grouped by device in the order they came. */
export function groupByDevice<T extends { deviceId: number }>(rows: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const list = out.get(row.deviceId);
    if (list) list.push(row);
    else out.set(row.deviceId, [row]);
  }
  return out;
}
