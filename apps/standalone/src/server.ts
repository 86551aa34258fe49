import closeWithGrace from "close-with-grace";
import { pino } from "pino";
import { StandaloneEnvSchema, loadConfigOrExit } from "@fleet/config";
import { startStandalone } from "./main.js";

const config = loadConfigOrExit(StandaloneEnvSchema);
const logger = pino({ name: "fleet", level: config.LOG_LEVEL });
const fleet = await startStandalone(config, logger);
closeWithGrace({ delay: 15_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await fleet.close();
});

const base = fleet.url.replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1");
const now = Date.now();
console.log(`
Fleet is running at ${base} (data in ${config.DATA_DIR}).
${fleet.adminCreated ? "Created the administrator" : "Administrator"}: ${config.FLEET_ADMIN_EMAIL}${fleet.adminCreated ? ` / ${config.FLEET_ADMIN_PASSWORD}` : ""}

  Log in:
    curl -s -X POST ${base}/api/login -d email=${config.FLEET_ADMIN_EMAIL} -d password=${fleet.adminCreated ? config.FLEET_ADMIN_PASSWORD : "<password>"}
  Add a device (as the administrator; see pnpm fleet --help):
    FLEET_URL=${base} pnpm fleet device add --name "Van 1" --imei 123456789012345
  Push a position:
    curl -s "${base}/insert.php?uniqueId=123456789012345&protocol=osmand&latitude=54.6872&longitude=25.2797&altitude=120&speed=20&course=90&fixTime=${now}"
  See it:
    FLEET_URL=${base} pnpm fleet device list
    curl -s "${base}/api/get_devices?lang=en&user_api_hash=<user_api_hash from the login>"
`);
