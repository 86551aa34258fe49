import type { Attributes } from "@fleet/contracts";
import { toNumber } from "@fleet/sensors";
import { jsonNumber } from "./json-write.js";
import { xmlText } from "./xml.js";

/*
 * What a history position shows of its attributes: `other` (the vendor's XML) and `other_arr`
 * (`key: value` lines), and for get_history, which writes ~8,600 positions per device-day by
 * hand, those and `power` (as @fleet/sensors' toNumber reads it) as JSON members.
 */

/** The attributes as the vendor's `other` XML (`<info><battery>73</battery></info>`); keys are already `[a-z0-9_-]`. */
export function otherXml(attributes: Attributes): string {
  let out = "<info>";
  for (const key in attributes) {
    const v = attributes[key]!;
    out += "<" + key + ">" + (typeof v === "string" ? xmlText(v) : String(v)) + "</" + key + ">";
  }
  return out + "</info>";
}

/** The attributes as `key: value` lines (the vendor's `other_arr`). */
export function otherArr(attributes: Attributes): string[] {
  const out: string[] = [];
  for (const key in attributes) out.push(`${key}: ${String(attributes[key])}`);
  return out;
}


/** `,"power":…,"other":"…","other_arr":[…]` of the attributes. */
export function attributeMembers(attributes: Attributes): string {
  return `,"power":${jsonNumber(toNumber(attributes.power))},"other":${JSON.stringify(otherXml(attributes))},"other_arr":${JSON.stringify(otherArr(attributes))}`;
}

/**
 * The same members read straight from the attributes as stored (JSON.stringify of a flat
 * object, keys `[a-z0-9_-]`), in one pass and without parsing them; undefined when the text
 * holds a backslash, for the caller to parse it instead. Without one, no string in it holds a
 * quote, a backslash or a control character, so its pieces are JSON text as they are, and a
 * number or boolean is written as String() writes it.
 */
export function attributeMembersOfText(text: string): string | undefined {
  if (text.includes("\\")) return undefined;
  let xml = "<info>";
  let arr = "";
  let power = "null";
  let i = 1;
  while (text.charCodeAt(i) === 34 /* " */) {
    const keyEnd = text.indexOf('"', i + 1);
    const key = text.slice(i + 1, keyEnd);
    i = keyEnd + 2;
    let value: string;
    let isString: boolean;
    if (text.charCodeAt(i) === 34) {
      const end = text.indexOf('"', i + 1);
      value = text.slice(i + 1, end);
      isString = true;
      i = end + 1;
    } else {
      let end = text.indexOf(",", i);
      if (end < 0) end = text.length - 1;
      value = text.slice(i, end);
      isString = false;
      i = end;
    }
    if (text.charCodeAt(i) === 44 /* , */) i++;
    xml += "<" + key + ">" + (isString ? xmlText(value) : value) + "</" + key + ">";
    arr += (arr === "" ? '"' : ',"') + key + ": " + value + '"';
    if (key === "power") power = isString ? jsonNumber(toNumber(value)) : value === "true" ? "1" : value === "false" ? "0" : value;
  }
  return `,"power":${power},"other":"${xml}</info>","other_arr":[${arr}]`;
}
