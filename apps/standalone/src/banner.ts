import path from "node:path";
import type { AdminAccount } from "@fleet/api";

/** What the start prints for a person: where it runs, who can log in, and a first position. */
export function banner(o: { url: string; osmandUrl?: string; dataDir: string; email: string; admin: AdminAccount }): string {
  const local = (url: string) => url.replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1");
  const base = local(o.url);
  const shownDir = path.relative(process.cwd(), o.dataDir) || ".";
  const password = o.admin.generatedPassword ?? "<password>";
  const who = o.admin.generatedPassword
    ? `Created the administrator ${o.email} with the password ${o.admin.generatedPassword}\n(shown this once and stored only hashed; set FLEET_ADMIN_PASSWORD before the first start to choose it)`
    : `${o.admin.created ? "Created the administrator" : "Administrator"}: ${o.email}${o.admin.created ? " (password from FLEET_ADMIN_PASSWORD)" : ""}`;
  return `
Fleet is running at ${base} (data in ${shownDir.startsWith("..") ? o.dataDir : `./${shownDir}`}).
${who}

  Log in:
    curl -s -X POST ${base}/api/login -d email=${o.email} -d password=${password}
  Add a device (as the administrator; see pnpm fleet --help):
    FLEET_URL=${base} FLEET_PASSWORD=${password} pnpm fleet device add --name "Van 1" --imei 123456789012345
  Push a position (timed when you run it: a fix older than the device's latest does not move it):
    curl -s "${base}/insert.php?uniqueId=123456789012345&protocol=osmand&latitude=54.6872&longitude=25.2797&altitude=120&speed=20&course=90&fixTime=$(date +%s)000"
  Phones running OsmAnd or Traccar Client (the device's IMEI is the phone's id): server URL
    ${o.osmandUrl ? local(o.osmandUrl) : `${base}/osmand`}
  See it:
    FLEET_URL=${base} FLEET_PASSWORD=${password} pnpm fleet device list
    curl -s "${base}/api/get_devices?lang=en&user_api_hash=<user_api_hash from the login>"
`;
}
