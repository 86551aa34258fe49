import { readFileSync } from "node:fs";
import os from "node:os";

const ticksToMs = 1000 / 100; // USER_HZ is 100 on Linux

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from
 * /proc/<pid>/stat; NaN where it cannot be read (another OS, a process that has exited).
 */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // Fields after the ")" that ends the command name: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * ticksToMs;
  } catch {
    return NaN;
  }
}

/** This process's own CPU time so far, in ms (the client side: load generator and pollers). */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Other work on the machine skews every figure; the load average is printed with each phase. */
export const loadNote = () => `(load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} cores)`;
