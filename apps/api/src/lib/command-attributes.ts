import type { CommandType } from "@fleet/contracts";
import { commandAttributes, type AttributeSpec } from "./command-catalogue.js";

export type AttributeValues = Record<string, string | number>;

/** The IMEI placeholder of custom commands, as the spec names it. */
const IMEI_PLACEHOLDER = "[%IMEI%]";

function checkOne(a: AttributeSpec, raw: unknown): { value: string | number } | { error: string } {
  const name = a.name.replaceAll("_", " ");
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return { error: `The ${name} field is required.` };
  const rule = a.rule;
  switch (rule.kind) {
    case "select": {
      const option = rule.options.find((o) => String(o.id) === String(raw));
      return option ? { value: option.id } : { error: `The selected ${name} is invalid.` };
    }
    case "integer": {
      const n = typeof raw === "number" ? raw : Number.NaN;
      if (!Number.isInteger(n)) return { error: `The ${name} must be an integer.` };
      if (n < rule.min) return { error: `The ${name} must be at least ${rule.min}.` };
      if (n > rule.max) return { error: `The ${name} may not be greater than ${rule.max}.` };
      return { value: n };
    }
    default: {
      if (typeof raw !== "string") return { error: `The ${name} must be a string.` };
      if (raw.length > rule.max) return { error: `The ${name} may not be greater than ${rule.max} characters.` };
      if (rule.pattern && !rule.pattern.re.test(raw)) return { error: `The ${name} must be ${rule.pattern.what}.` };
      return { value: raw };
    }
  }
}

/**
 * The attribute values of a `type` command from the request body, checked against the
 * command's descriptors; every bad field is reported at once. Fields the type does not
 * use are ignored. custom takes its raw command from `data`, or from the vendor's
 * `message` field when `data` is absent.
 */
export function commandValues(type: CommandType, body: Record<string, unknown>): { values: AttributeValues } | { errors: Record<string, string> } {
  const values: AttributeValues = {};
  const errors: Record<string, string> = {};
  for (const a of commandAttributes[type]) {
    const raw = type === "custom" && a.name === "data" && (body.data === undefined || body.data === "") ? body.message : body[a.name];
    const checked = checkOne(a, raw);
    if ("error" in checked) errors[a.name] = checked.error;
    else values[a.name] = checked.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { values };
}

/** A custom command's text with every [%IMEI%] replaced by the device's IMEI. */
export function withImei(values: AttributeValues, imei: string): AttributeValues {
  const data = values.data;
  return typeof data === "string" ? { ...values, data: data.replaceAll(IMEI_PLACEHOLDER, imei) } : values;
}
