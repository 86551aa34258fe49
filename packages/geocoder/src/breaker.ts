/**
 * When to stop asking a geocoder that keeps failing: after `failures` failed lookups in a row,
 * lookups are refused for `coolDownMs`, then one is let through as a trial; its success closes
 * the breaker, its failure opens it again. A dead or hanging server then costs a report, an
 * event list or a live poll one round of timeouts, not one per address.
 */
export interface BreakerOptions {
  /** Failed lookups in a row that open it. Default 5. */
  failures?: number;
  /** How long it stays open before a trial. Default 30 s. */
  coolDownMs?: number;
  now?: () => number;
}

export const DEFAULT_BREAKER_FAILURES = 5;
export const DEFAULT_BREAKER_COOL_DOWN_MS = 30_000;

/** What a lookup's outcome changed, for the one log line each change deserves. */
export type BreakerChange = "opened" | "closed" | undefined;

export class Breaker {
  readonly failures: number;
  readonly coolDownMs: number;
  private readonly now: () => number;
  private inARow = 0;
  /** While open, when the next trial may go; undefined while closed. */
  private openUntil: number | undefined;
  private trialRunning = false;

  constructor(opts: BreakerOptions = {}) {
    this.failures = opts.failures ?? DEFAULT_BREAKER_FAILURES;
    this.coolDownMs = opts.coolDownMs ?? DEFAULT_BREAKER_COOL_DOWN_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Whether a lookup may ask the server now; a true answer while open makes it the trial. */
  allow(): boolean {
    if (this.openUntil === undefined) return true;
    if (this.trialRunning || this.now() < this.openUntil) return false;
    this.trialRunning = true;
    return true;
  }

  succeeded(): BreakerChange {
    this.inARow = 0;
    this.trialRunning = false;
    if (this.openUntil === undefined) return undefined;
    this.openUntil = undefined;
    return "closed";
  }

  failed(): BreakerChange {
    const wasOpen = this.openUntil !== undefined;
    this.trialRunning = false;
    this.inARow++;
    if (!wasOpen && this.inARow < this.failures) return undefined;
    this.openUntil = this.now() + this.coolDownMs;
    return wasOpen ? undefined : "opened";
  }
}
