import net from "node:net";

/**
 * A few one-line Redis commands over a plain socket (the bench has no Redis client of its
 * own): enough to SELECT the bench's database, count it and FLUSHDB it. Returns each
 * reply's text; an error reply throws.
 */
export function redisCommands(url: string, commands: string[][]): Promise<string[]> {
  const u = new URL(url);
  const auth = u.password ? [u.username ? ["AUTH", decodeURIComponent(u.username), decodeURIComponent(u.password)] : ["AUTH", decodeURIComponent(u.password)]] : [];
  const all = [...auth, ...commands];
  const wire = all.map((args) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`).join("");
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    let text = "";
    socket.setTimeout(5000, () => socket.destroy(new Error(`Redis at ${u.host} did not answer in 5 s`)));
    socket.on("error", reject);
    socket.on("connect", () => socket.write(wire));
    socket.on("data", (d) => {
      text += d.toString("utf8");
      const lines = text.split("\r\n").slice(0, -1);
      if (lines.length < all.length) return;
      socket.end();
      const replies = lines.slice(auth.length, all.length);
      const failed = lines.find((l) => l.startsWith("-"));
      if (failed) reject(new Error(`Redis: ${failed.slice(1)}`));
      else resolve(replies.map((l) => l.slice(1)));
    });
  });
}

/** Keys in database `index`. */
export async function redisDbSize(url: string, index: number): Promise<number> {
  const [, size] = await redisCommands(url, [["SELECT", String(index)], ["DBSIZE"]]);
  return Number(size);
}

export async function flushRedisDb(url: string, index: number): Promise<void> {
  await redisCommands(url, [["SELECT", String(index)], ["FLUSHDB"]]);
}
