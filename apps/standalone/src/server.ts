import path from "node:path";
import closeWithGrace from "close-with-grace";
import { ListenError, StandaloneEnvSchema, loadConfigOrExit } from "@fleet/config";
import { createLogger } from "@fleet/logging";
import { UnsafeStartError } from "@fleet/api";
import { startStandalone } from "./main.js";
import { banner } from "./banner.js";

const loaded = loadConfigOrExit(StandaloneEnvSchema);
// A relative DATA_DIR is where `pnpm start` was run (pnpm's INIT_CWD), not this package's folder.
const config = { ...loaded, DATA_DIR: path.resolve(process.env.INIT_CWD ?? process.cwd(), loaded.DATA_DIR) };
const logger = createLogger({ name: "fleet", level: config.LOG_LEVEL });
const fleet = await startStandalone(config, logger).catch((err: unknown) => {
  if (!(err instanceof UnsafeStartError || err instanceof ListenError)) throw err;
  logger.fatal(err.message);
  process.exit(1);
});
// Room for the stop to handle what ingest acknowledged (up to 30 s under a flood, main.ts) and close the stores.
closeWithGrace({ delay: 45_000 }, async ({ err, signal }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await fleet.close();
  logger.info({ signal, dataDir: config.DATA_DIR }, "stopped; data kept");
});

console.log(banner({ url: fleet.url, osmandUrl: fleet.osmandUrl, dataDir: config.DATA_DIR, email: config.FLEET_ADMIN_EMAIL, admin: fleet.admin }));
