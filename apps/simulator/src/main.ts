import { CliEnvSchema, loadConfigOrExit } from "@fleet/config";
import { HELP, parseCli } from "./options.js";
import { run, summaryLine } from "./run.js";

// Progress and the summary are the program's output, on stdout; errors go to stderr.
const say = (line: string) => void process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  let cli;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${HELP}`);
    return 1;
  }
  if (cli.help) {
    say(HELP);
    return 0;
  }
  const env = loadConfigOrExit(CliEnvSchema);
  const stop = new AbortController();
  // `on`, not `once`: under tsx, Ctrl-C arrives twice (from the terminal and relayed), and a
  // second SIGINT with no listener would end the process before the summary.
  const onSignal = () => stop.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const summary = await run({ cli, env, signal: stop.signal, out: say });
  say(summaryLine(summary));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  },
);
