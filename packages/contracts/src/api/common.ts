import { Type, type TSchema } from "@sinclair/typebox";

/** Languages the API accepts in `lang`. Messages are English for every one of them for now. */
export const SupportedLangs = ["en", "lt", "ru", "es", "de", "fr", "pt", "pl", "it", "nl", "lv", "et", "tr", "ar"] as const;

export const StatusOk = Type.Literal(1);
export const StatusFail = Type.Literal(0);

/** Response bodies every authenticated route may answer with, by HTTP status. */
export const FailureResponses = {
  400: Type.Object({ status: StatusFail, error: Type.String() }, { description: "No language selected, or a malformed request" }),
  401: Type.Object({ status: StatusFail, error: Type.String() }, { description: "Missing or invalid user_api_hash" }),
  404: Type.Object({ status: StatusFail, error: Type.String() }, { description: "No such record of this user" }),
  422: Type.Object({ status: StatusFail, errors: Type.Record(Type.String(), Type.String()) }, { description: "Validation errors by field" }),
} as const;

/** `GET /health` of every app (`/api/health` for the API): 200 while the process serves. */
export const HealthResponseSchema = Type.Object({ status: StatusOk });

/** `{id, value}` option lists, as the vendor's *_data endpoints return them. */
export const IdValue = <T extends TSchema>(id: T) => Type.Object({ id, value: Type.String() });

/** A yes/no field as forms send it (1/0, "1"/"0") or as JSON does (true/false). */
export const FormBoolean = (opts: { description?: string } = {}) =>
  Type.Union([Type.Boolean(), Type.Literal(1), Type.Literal(0), Type.Literal("1"), Type.Literal("0")], opts);

export function isTruthy(v: boolean | 0 | 1 | "0" | "1" | undefined): boolean | undefined {
  return v === undefined ? undefined : v === true || v === 1 || v === "1";
}
