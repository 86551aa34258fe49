import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactQueryText, redactUrl } from "./index.js";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter((l) => l.length > 0));
      done();
    },
  });
  return { lines, destination };
}

describe("redactUrl", () => {
  it("replaces the values of secret parameters and keeps the rest", () => {
    expect(redactUrl("/api/get_devices?lang=en&user_api_hash=abc123&page=2")).toBe("/api/get_devices?lang=en&user_api_hash=[redacted]&page=2");
    expect(redactUrl("/api/login?email=a%40b.c&password=hunter22")).toBe("/api/login?email=a%40b.c&password=[redacted]");
    expect(redactUrl("/reset?TOKEN=t0k3n#frag")).toBe("/reset?TOKEN=[redacted]");
  });

  it("recognises encoded and bracketed names", () => {
    expect(redactUrl("/x?user%5Fapi%5Fhash=abc&password[]=p")).toBe("/x?user%5Fapi%5Fhash=[redacted]&password[]=[redacted]");
  });

  it("redacts a secret in a path that lacks its '?', as a careless client sends it", () => {
    expect(redactUrl("/api/get_devices&lang=en&user_api_hash=abc123")).toBe("/api/get_devices&lang=en&user_api_hash=[redacted]");
    expect(redactUrl("/api/get_devices;user_api_hash=abc123")).toBe("/api/get_devices;user_api_hash=[redacted]");
    expect(redactUrl("/api/report_download?token=a/b+c==&x=1")).toBe("/api/report_download?token=[redacted]&x=1");
  });

  it("redacts a secret however a careless client writes its pair", () => {
    const H = "0123456789abcdef0123456789abcdef";
    for (const url of [
      `/api/get_devices?lang=en;user_api_hash=${H}`,
      `/api/get_devices;lang=en;user_api_hash=${H}`,
      `/api/get_devices?lang=en&user_api_hash%3D${H}`,
      `/api/get_devices?user_api_hash+=${H}`,
      `/api/get_devices?user_api_hash%20=${H}`,
      `/api/get_devices?user_api_hash%09=${H}`,
      `/api/get_devices?lang=en%26user_api_hash=${H}`,
      `/api/get_devices%3Fuser_api_hash=${H}`,
      `/api/get_devices?USER%5FAPI%5FHASH%3D${H}&lang=en`,
      `/api/get_devices?user_api_hash:${H}`,
      `http://admin%40x.test:${H}@127.0.0.1:8080/api/get_devices?lang=en`,
      `/api/login?email=a%40b.c&pwd=${H}`,
    ]) {
      const out = redactUrl(url);
      expect(out, url).not.toContain(H);
      expect(out, url).toContain("[redacted]");
    }
    // Mangled past the patterns: the parameters are dropped whole.
    for (const url of [
      `/api/get_devices?lang=en&user_api_hash%0A=${H}`,
      `/api/get_devices?lang=en&user_api_hash%C2%A0=${H}`,
      `/api/get_devices?lang=en&+user_api_hash=${H}`,
      `/api/get_devices?a[user_api_hash]=${H}`,
      `/api/get_devices?x=user_api_hash=${H}`,
      `/api/get_devices?x=1|user_api_hash=${H}`,
      `/api/get_devices?userApiHash=${H}`,
      `/api/get_devices?user-api-hash=${H}`,
      `/api/login?a[password]=${H}`,
      `/api/login?access_token=${H}`,
      `/api/nope/http://admin:${H}@x/`,
      `/api/nope?callback=http://admin:${H}@evil/`,
      `/api/get_devices?lang=en&hash=${H}`,
      `/api/nope?secret=${H}`,
      `/api/nope?+pwd=${H}`,
      `/api/nope?pw=${H}`,
      `/api/${H}`,
      `/api/get_devices/${H}?lang=en`,
    ]) {
      const out = redactUrl(url);
      expect(out, url).not.toContain(H);
      expect(out, url).toContain("[redacted]");
    }
    expect(redactUrl(`/api/get_devices?lang=en&userApiHash=${H}`)).toBe("/api/get_devices?lang=en&userApiHash=[redacted]");
    expect(redactUrl("/api/get_devices?lang=en&userApiHash=s3cret")).toBe("/api/get_devices?[redacted]");
    expect(redactUrl("/api/get_devices?lang=en;user_api_hash=abc&page=2")).toBe("/api/get_devices?lang=en;user_api_hash=[redacted]&page=2");
    // Names that merely end in a secret's name are not secrets.
    expect(redactUrl("/api/x?country_code=LT&passcode=1")).toBe("/api/x?country_code=LT&passcode=1");
  });

  it("leaves a URL without a query alone", () => {
    expect(redactUrl("/api/docs/json")).toBe("/api/docs/json");
  });
});

describe("redactQueryText", () => {
  it("drops a failed query's parameters and a secret key's value", () => {
    const text = 'Failed query: insert into "users" ("email", "password_hash", "api_hash") values ($1, $2, $3)\nparams: bad@,scrypt$abc,hash123';
    const out = redactQueryText(text);
    expect(out).not.toContain("scrypt$abc");
    expect(out).not.toContain("hash123");
    expect(out).toContain('insert into "users"');
    expect(redactQueryText("Key (api_hash)=(hash123) already exists.")).toBe("Key (api_hash)=([redacted]) already exists.");
    expect(redactQueryText("Key (email)=(a@b.c) already exists.")).toBe("Key (email)=(a@b.c) already exists.");
  });
});

describe("createLogger", () => {
  it("writes request lines without the api hash", () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: "t", level: "info", destination });
    log.info({ req: { method: "GET", url: "/api/get_devices?user_api_hash=s3cr3t", ip: "127.0.0.1" } }, "incoming request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("s3cr3t");
    expect(JSON.parse(lines[0]!).req.url).toBe("/api/get_devices?user_api_hash=[redacted]");
  });

  it("censors secret fields of logged objects", () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: "t", level: "info", destination });
    log.info({ password: "pw-1", user: { apiHash: "h-2", passwordHash: "ph-3", email: "a@b.c" }, body: { user_api_hash: "h-4" } }, "x");
    const line = lines.join("\n");
    for (const secret of ["pw-1", "h-2", "ph-3", "h-4"]) expect(line).not.toContain(secret);
    expect(line).toContain("a@b.c");
  });

  it("logs a failed query's error without its parameters, in the error and its cause", () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: "t", level: "info", destination });
    const cause = Object.assign(new Error("duplicate key value violates unique constraint"), { detail: "Key (api_hash)=(hash-5) already exists." });
    const err = Object.assign(new Error('Failed query: insert into "users" values ($1, $2)\nparams: x@y,phash-6'), { params: ["x@y", "phash-6"], cause });
    log.error({ err }, "query failed");
    const line = lines.join("\n");
    expect(line).not.toContain("phash-6");
    expect(line).not.toContain("hash-5");
    expect(line).toContain("duplicate key value");
  });

  it("writes human-readable lines when asked to be pretty", () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: "t", level: "info", destination, pretty: true });
    log.info({ req: { method: "GET", url: "/api/x?user_api_hash=s3cr3t" } }, "hello there");
    const text = lines.join("\n");
    expect(text).toContain("hello there");
    expect(text).not.toContain("s3cr3t");
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });
});
