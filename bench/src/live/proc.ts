import { readFileSync, readdirSync } from "node:fs";
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

/** Fields of /proc/<pid>/stat after the command name, and that name. */
function statOf(pid: string): { comm: string; f: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), f: stat.slice(stat.lastIndexOf(")") + 2).split(" ") };
  } catch {
    return undefined;
  }
}

export interface ServiceCpu {
  postgres: number;
  redis: number;
}

/**
 * CPU time so far of the local Postgres (every `postgres` process: the server, its
 * backends for every database, others' included, and what exited backends left in the
 * server's children's time) and of redis-server, in ms: on two cores they compete with
 * the app, and where a slow answer waits on them their CPU shows it. NaN off Linux.
 */
export function serviceCpuMs(): ServiceCpu {
  const out: ServiceCpu = { postgres: 0, redis: 0 };
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return { postgres: NaN, redis: NaN };
  }
  const stats = pids.map((pid) => ({ pid, ...statOf(pid) })).filter((s): s is { pid: string; comm: string; f: string[] } => s.f !== undefined);
  const postgresPids = new Set(stats.filter((s) => s.comm === "postgres").map((s) => s.pid));
  for (const s of stats) {
    const own = (Number(s.f[11]) + Number(s.f[12])) * ticksToMs;
    if (s.comm === "redis-server") out.redis += own;
    if (s.comm === "postgres") {
      out.postgres += own;
      // The server itself (its parent is not postgres): exited backends' time is in its children's.
      if (!postgresPids.has(s.f[1]!)) out.postgres += (Number(s.f[13]) + Number(s.f[14])) * ticksToMs;
    }
  }
  return out;
}
