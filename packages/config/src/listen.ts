/** A server could not take its address: the message says which setting to change. */
export class ListenError extends Error {
  override name = "ListenError";
}

/** Where a server listens, and the settings that name its port and its host (HOST unless said). */
export interface ListenAt {
  host: string;
  port: number;
  setting: string;
  hostSetting?: string;
}

const WHY: Record<string, (at: ListenAt) => string> = {
  EADDRINUSE: (at) => `${at.host}:${at.port} is already in use by another program: stop it, or choose another ${at.setting}.`,
  EACCES: (at) => `This user may not listen on ${at.host}:${at.port}: choose a ${at.setting} above 1023.`,
  EADDRNOTAVAIL: (at) => `${at.host} is no address of this machine: set ${at.hostSetting ?? "HOST"} to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`,
};

/** Starts listening at `at` (`listen`, e.g. fastify's); an address it cannot take is thrown as a ListenError. */
export async function listenAt<T>(at: ListenAt, listen: (address: { host: string; port: number }) => Promise<T>): Promise<T> {
  try {
    return await listen({ host: at.host, port: at.port });
  } catch (err) {
    const why = WHY[(err as { code?: string }).code ?? ""];
    throw why ? new ListenError(why(at)) : err;
  }
}

/** An entry point's listen: an address it cannot take is one clear line (through `fatal`) and exit code 1, not a stack trace. */
export async function listenOrExit<T>(at: ListenAt, listen: (address: { host: string; port: number }) => Promise<T>, fatal: (message: string) => void): Promise<T> {
  try {
    return await listenAt(at, listen);
  } catch (err) {
    if (!(err instanceof ListenError)) throw err;
    fatal(err.message);
    process.exit(1);
  }
}
