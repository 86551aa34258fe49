import { parseArgs } from "node:util";
import { CliEnvSchema, loadConfigOrExit } from "@fleet/config";
import { FleetClient } from "./client.js";

const HELP = `Usage: pnpm fleet <command> [options]

Commands:
  user add --email E --password P [--admin] [--devices-limit N]   create a user (administrators only)
  user list                                                      list users (administrators only)
  device add --name N --imei I [--icon-id 1]                     add a device to the signed-in account
  device list                                                    the signed-in account's devices, with last fix
  unregistered                                                   uniqueIds that sent positions but match no device
  dead-letters [--topic positions.dead|events.dead]              messages the pipeline could never process, and why
  dead-letters republish [--id ID ...] [--topic T]               send them back to their topic after a fix (default: all not yet sent)

Sign-in (every command): --as EMAIL --password-for-login P, or env FLEET_EMAIL / FLEET_PASSWORD,
defaulting to FLEET_ADMIN_EMAIL / FLEET_ADMIN_PASSWORD (admin@fleet.local and the password the
server printed on its first start); or --hash USER_API_HASH. Server: --url or FLEET_URL (default http://127.0.0.1:8080).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string" },
    as: { type: "string" },
    "password-for-login": { type: "string" },
    hash: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    admin: { type: "boolean", default: false },
    "devices-limit": { type: "string" },
    name: { type: "string" },
    imei: { type: "string" },
    "icon-id": { type: "string", default: "1" },
    topic: { type: "string", default: "positions.dead" },
    id: { type: "string", multiple: true },
    help: { type: "boolean", short: "h", default: false },
  },
});

function need(name: keyof typeof values): string {
  const v = values[name];
  if (typeof v !== "string" || v === "") throw new Error(`--${name} is required.\n\n${HELP}`);
  return v;
}

async function signedIn(): Promise<FleetClient> {
  const env = loadConfigOrExit(CliEnvSchema);
  const client = new FleetClient(values.url ?? env.FLEET_URL);
  if (values.hash) client.useHash(values.hash);
  else {
    const email = values.as ?? env.FLEET_EMAIL ?? env.FLEET_ADMIN_EMAIL;
    const password = values["password-for-login"] ?? env.FLEET_PASSWORD ?? env.FLEET_ADMIN_PASSWORD;
    if (password === undefined) throw new Error(`No password to sign in as ${email}: set FLEET_PASSWORD (the administrator's was printed when the server first started) or pass --hash.\n\n${HELP}`);
    await client.login(email, password);
  }
  return client;
}

async function run(): Promise<void> {
  const [noun, verb] = positionals;
  if (values.help || !noun) return console.log(HELP);
  const client = await signedIn();
  const command = [noun, verb].filter(Boolean).join(" ");
  switch (command) {
    case "user add": {
      const password = need("password");
      const r = (await client.post("admin/client", {
        email: need("email"),
        password,
        password_confirmation: password,
        group_id: values.admin ? 1 : 2,
        active: true,
        ...(values["devices-limit"] ? { devices_limit: Number(values["devices-limit"]) } : {}),
      })) as { item: { id: number; email: string } };
      return console.log(`created user ${r.item.id} ${r.item.email}`);
    }
    case "user list": {
      const r = (await client.get("admin/clients")) as { data: { id: number; email: string; group_id: number; active: number }[] };
      for (const u of r.data) console.log(`${u.id}\t${u.email}\t${u.group_id === 1 ? "admin" : "user"}\t${u.active ? "active" : "inactive"}`);
      return;
    }
    case "device add": {
      const r = (await client.post("add_device", {
        name: need("name"),
        imei: need("imei"),
        icon_id: Number(values["icon-id"]),
        fuel_measurement_id: 1,
        tail_length: 5,
        min_moving_speed: 6,
        min_fuel_fillings: 10,
        min_fuel_thefts: 10,
      })) as { id: number };
      return console.log(`created device ${r.id} (${values.imei}): push positions with uniqueId=${values.imei}`);
    }
    case "device list": {
      const groups = (await client.get("get_devices")) as { title: string; items: { id: number; name: string; online: string; time: string; lat: number; lng: number; device_data: { imei: string } }[] }[];
      for (const g of groups) for (const d of g.items) console.log(`${d.id}\t${d.device_data.imei}\t${d.name}\t${d.online}\t${d.time}\t${d.lat},${d.lng}\t[${g.title}]`);
      return;
    }
    case "unregistered": {
      const r = (await client.get("admin/unregistered_devices")) as { items: { unique_id: string; protocol: string; count: number; first_seen: string; last_seen: string }[] };
      if (r.items.length === 0) return console.log("no unregistered devices");
      for (const u of r.items) console.log(`${u.unique_id}\t${u.protocol}\t${u.count} positions\tfirst ${u.first_seen}\tlast ${u.last_seen}`);
      return;
    }
    case "dead-letters": {
      const r = (await client.get("admin/dead_letters", { topic: values.topic })) as {
        items: { id: string; topic: string; partition: number; offset: string; key: string; error: { name: string; message: string; code?: string }; value: string; dead_at: string; republished_at: string | null }[];
      };
      if (r.items.length === 0) return console.log(`${values.topic} is empty`);
      for (const l of r.items) {
        const code = l.error.code ? ` [${l.error.code}]` : "";
        const state = l.republished_at ? `republished ${l.republished_at}` : "waiting";
        console.log(`${l.id}\t${l.dead_at}\t${l.topic}[${l.partition}]@${l.offset}\tkey ${l.key}\t${state}\n  ${l.error.name}${code}: ${l.error.message}\n  ${l.value.slice(0, 300)}`);
      }
      return console.log(`${r.items.length} dead letter(s), ${r.items.filter((l) => !l.republished_at).length} waiting`);
    }
    case "dead-letters republish": {
      const r = (await client.post("admin/dead_letters/republish", { topic: values.topic, ...(values.id ? { ids: values.id } : {}) })) as { republished: number };
      return console.log(`republished ${r.republished} message(s) from ${values.topic}`);
    }
    default:
      throw new Error(`Unknown command "${command}".\n\n${HELP}`);
  }
}

run().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
