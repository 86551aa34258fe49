import { readFileSync, readdirSync } from "node:fs";

/**
 * CPU time of the local Kafka broker (the JVM running kafka.Kafka), from /proc: on a
 * 2-core machine the broker competes with the server under test, so its share per
 * request is part of the cost of the durable path. Undefined where /proc or the broker
 * process is not found (another OS, a remote broker).
 */
export function brokerCpuClock(): (() => number) | undefined {
  let pid: string | undefined;
  try {
    pid = readdirSync("/proc").find((d) => {
      if (!/^\d+$/.test(d)) return false;
      try {
        return readFileSync(`/proc/${d}/cmdline`, "latin1").split("\0").includes("kafka.Kafka");
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
  if (!pid) return undefined;
  const ticksToUs = 1e6 / 100; // USER_HZ is 100 on Linux
  return () => {
    // Fields after the ")" that ends the command name: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * ticksToUs;
  };
}
