import { type TObject, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
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
  const problems = [...Value.Errors(schema, value)].map((e) => `${e.path.slice(1) || "(root)"}: ${e.message}${e.value === undefined ? "" : ` (got ${JSON.stringify(e.value)})`}`);
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
