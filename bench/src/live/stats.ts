/** Latency samples summed up the same way for every measure. */
export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const n = samples.length;
  return {
    n,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: n > 0 ? Math.max(...samples) : NaN,
    mean: n > 0 ? samples.reduce((a, b) => a + b, 0) / n : NaN,
  };
}

/** The median of the finite values (the lower middle one of an even count); NaN if none. */
export function median(xs: readonly number[]): number {
  const ok = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return ok.length === 0 ? NaN : ok[Math.floor((ok.length - 1) / 2)]!;
}

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : String(n);

/** A machine-readable figure: fixed decimals, no thousands separators, NaN when unmeasured. */
export const num = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "NaN");

export const describe = (s: Summary) => `n=${s.n} p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms`;
