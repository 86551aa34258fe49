import { ApiError, FleetClient } from "@fleet/cli/client";

export interface SignIn {
  url: string;
  /** The account the devices are registered for. */
  email: string;
  /** Its password (FLEET_PASSWORD); for the administrator's own account, FLEET_ADMIN_PASSWORD serves. */
  password?: string;
  /** The administrator (FLEET_ADMIN_EMAIL / FLEET_ADMIN_PASSWORD), who creates the account when it does not exist yet. */
  admin?: { email: string; password?: string };
}

export interface Registered {
  added: number;
  existing: number;
  /** Whether the account was created for this run. */
  created: boolean;
}

/** What add_device needs beyond name and IMEI: the values `pnpm fleet device add` sends. */
const DEVICE_DEFAULTS = { icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10 };

const refusedLogin = (err: unknown) => err instanceof ApiError && (err.httpStatus === 401 || err.httpStatus === 403 || err.httpStatus === 422);

/**
 * Signs in as the account (creating it through the administrator when it does not exist and
 * both passwords are known), then adds through add_device each of `devices` that the account
 * does not hold yet: a rerun with the same seed finds its devices registered.
 */
export async function registerDevices(s: SignIn, devices: readonly { uniqueId: string; name: string }[], log: (line: string) => void): Promise<Registered> {
  const password = s.password ?? (s.admin && s.admin.email === s.email ? s.admin.password : undefined);
  if (password === undefined) throw new Error(`No password to sign in as ${s.email}: set FLEET_PASSWORD (with FLEET_ADMIN_PASSWORD too, the account is created if it does not exist).`);
  const client = new FleetClient(s.url);
  let created = false;
  try {
    await client.login(s.email, password);
  } catch (err) {
    if (!refusedLogin(err)) throw err;
    const refused = new Error(`Signing in as ${s.email} was refused: ${(err as Error).message}`);
    if (!s.admin?.password || s.admin.email === s.email) throw refused;
    const admin = new FleetClient(s.url);
    await admin.login(s.admin.email, s.admin.password);
    const users = (await admin.get("admin/clients")) as { data: { email: string }[] };
    // An account that exists was refused for its password, which creating it again would not mend.
    if (users.data.some((u) => u.email.toLowerCase() === s.email.toLowerCase())) throw refused;
    log(`${s.email} has no account yet; creating it as the administrator ${s.admin.email}`);
    await admin.post("admin/client", { email: s.email, password, password_confirmation: password, group_id: 2, active: true });
    created = true;
    await client.login(s.email, password);
  }

  const groups = (await client.get("get_devices")) as { items: { device_data: { imei: string } }[] }[];
  const held = new Set(groups.flatMap((g) => g.items.map((d) => d.device_data.imei)));
  const missing = devices.filter((d) => !held.has(d.uniqueId));
  for (const d of missing) {
    try {
      await client.post("add_device", { name: d.name, imei: d.uniqueId, ...DEVICE_DEFAULTS });
    } catch (err) {
      // IMEIs are unique on the server: another account may hold this seed's devices.
      const onImei = err instanceof ApiError && err.httpStatus === 422 && (err.body as { errors?: Record<string, string> } | undefined)?.errors?.imei !== undefined;
      throw new Error(`add_device ${d.uniqueId} for ${s.email}: ${(err as Error).message}${onImei ? " (if another account registered this seed's devices, run with another --seed)" : ""}`);
    }
  }
  return { added: missing.length, existing: devices.length - missing.length, created };
}
