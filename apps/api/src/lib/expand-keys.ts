/**
 * Forms and query strings carry structure in their names: `devices[]=1`,
 * `groups[0][title]=Vans`, `notifications[email][active]=1`. This turns such flat
 * key/value pairs into the nested objects and arrays a JSON body would have carried,
 * so one schema validates every content type.
 */
const MAX_DEPTH = 6;
const MAX_INDEX = 10_000;

type Node = Record<string, unknown> | unknown[];

function path(key: string): string[] | undefined {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
  if (!m) return undefined;
  const parts = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
  return parts.length <= MAX_DEPTH + 1 ? parts : undefined;
}

function isIndex(part: string): boolean {
  return part === "" || (/^\d+$/.test(part) && Number(part) <= MAX_INDEX);
}

function assign(target: Node, parts: string[], value: unknown): void {
  let node: Node = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const nextIsIndex = !last && isIndex(parts[i + 1]!);
    if (Array.isArray(node)) {
      const idx = part === "" ? node.length : Number(part);
      if (last) {
        // One at a time: a spread of a form's 200,000 `id[]` values overflows the call stack.
        if (Array.isArray(value) && part === "") for (const v of value) node.push(v);
        else node[idx] = value;
        return;
      }
      node[idx] ??= nextIsIndex ? [] : {};
      node = node[idx] as Node;
    } else {
      if (part === "__proto__" || part === "constructor" || part === "prototype") return;
      if (last) {
        node[part] = value;
        return;
      }
      const existing = node[part];
      if (typeof existing !== "object" || existing === null) node[part] = nextIsIndex ? [] : {};
      node = node[part] as Node;
    }
  }
}

export function expandKeys(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = path(key);
    if (parts) assign(out, parts, value);
    else if (key !== "__proto__") out[key] = value;
  }
  // Sparse indexes (`a[3]` alone) leave holes; compact them so validation sees values only.
  const compact = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(compact);
    if (v && typeof v === "object" && !Buffer.isBuffer(v)) for (const k of Object.keys(v)) (v as Record<string, unknown>)[k] = compact((v as Record<string, unknown>)[k]);
    return v;
  };
  return compact(out) as Record<string, unknown>;
}
