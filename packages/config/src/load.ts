import { type TObject, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const SECRET_NAME = /PASSWORD|SECRET|TOKEN|HASH|KEY/;

/**
 * A refused value as the error line may show it: never a secret's (a password that is too
 * short is still a password), and a URL without its user:password part.
 */
function shown(name: string, value: unknown): string {
  if (SECRET_NAME.test(name)) return "(hidden)";
  return JSON.stringify(typeof value === "string" ? value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1***@") : value);
}

/**
 * Reads the environment once against a schema: defaults applied, strings coerced to
 * the declared types, unknown variables ignored. Empty strings count as unset, so
 * `KAFKA_BROKERS=` behaves like no Kafka. Throws ConfigError listing every problem.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== "") picked[key] = v;
  }
  const value = Value.Convert(schema, Value.Default(schema, picked));
  const problems = [...Value.Errors(schema, value)].map((e) => `${e.path.slice(1) || "(root)"}: ${e.message}${e.value === undefined ? "" : ` (got ${shown(e.path.slice(1), e.value)})`}`);
  if (problems.length > 0) throw new ConfigError(problems);
  return value as Static<T>;
}

/** Entry points call this: a clear message and exit code 1 instead of a stack trace. */
export function loadConfigOrExit<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  try {
    return loadConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** The services an app in a process of its own cannot have embedded. */
export type ServiceVar = "KAFKA_BROKERS" | "DATABASE_URL" | "REDIS_URL" | "CLICKHOUSE_URL";

const EMBEDDED_INSTEAD: Record<ServiceVar, string> = {
  KAFKA_BROKERS: "an in-process bus reaches no other process",
  DATABASE_URL: "PGlite opens its directory in one process only",
  REDIS_URL: "an in-memory live store is seen by no other process",
  CLICKHOUSE_URL: "chDB opens its directory in one process only",
};

/** Why `app` cannot run in a process of its own with `config`, in one line; undefined when it can. */
export function missingServices(config: Partial<Record<ServiceVar, unknown>>, app: string, needs: readonly ServiceVar[]): string | undefined {
  const missing = needs.filter((n) => config[n] === undefined || config[n] === "");
  if (missing.length === 0) return undefined;
  return `${app} in a process of its own needs ${missing.join(", ")} (${missing.map((m) => EMBEDDED_INSTEAD[m]).join("; ")}); \`pnpm start\` runs everything in one process on the embedded stores`;
}

/** An app's entry point: its settings, validated, and the services it needs there, or one clear line and exit code 1. */
export function loadAppConfigOrExit<T extends TObject, N extends ServiceVar>(schema: T, app: string, needs: readonly N[], env: NodeJS.ProcessEnv = process.env): Static<T> & { [K in N]: string } {
  const config = loadConfigOrExit(schema, env);
  const problem = missingServices(config as Partial<Record<ServiceVar, unknown>>, app, needs);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  return config as Static<T> & { [K in N]: string };
}
