/** What orders a device's fixes: fix time, then position id, so two fixes at one time still have an order. */
export interface Ordered {
  fixTime: number;
  id: number;
}

/** Whether `a` comes before `b` in the device's track. */
export const before = (a: Ordered, b: Ordered): boolean => a.fixTime < b.fixTime || (a.fixTime === b.fixTime && a.id < b.id);
