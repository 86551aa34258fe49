/** A small client of the fleet HTTP API: the CLI talks to a running server, never to its data directory. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: unknown,
  ) {
    super(describe(body, httpStatus));
  }
}

function describe(body: unknown, status: number): string {
  if (body && typeof body === "object") {
    const b = body as { error?: string; message?: string; errors?: Record<string, string> };
    if (b.errors) return Object.entries(b.errors).map(([k, v]) => `${k}: ${v}`).join("\n");
    if (b.error ?? b.message) return String(b.error ?? b.message);
  }
  return `HTTP ${status}`;
}

export class FleetClient {
  private hash: string | undefined;

  constructor(private readonly baseUrl: string) {}

  private async call(method: "GET" | "POST", path: string, body?: Record<string, unknown>, query: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(`/api/${path}`, this.baseUrl);
    url.searchParams.set("lang", "en");
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.hash) headers["user-api-hash"] = this.hash;
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
    } catch (err) {
      throw new Error(`Cannot reach ${this.baseUrl} (${(err as Error).message}). Is the server running (pnpm start)?`);
    }
    const json: unknown = await res.json().catch(() => undefined);
    if (!res.ok || (json as { status?: number } | undefined)?.status === 0) throw new ApiError(res.status, json);
    return json;
  }

  async login(email: string, password: string): Promise<void> {
    const r = (await this.call("POST", "login", { email, password })) as { user_api_hash: string };
    this.hash = r.user_api_hash;
  }

  useHash(hash: string): void {
    this.hash = hash;
  }

  get = (path: string, query?: Record<string, string>) => this.call("GET", path, undefined, query);
  post = (path: string, body: Record<string, unknown>) => this.call("POST", path, body);
}
