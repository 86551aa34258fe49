import { Type, type Static } from "@sinclair/typebox";

/** Failure body A: field-by-field validation errors. */
export const ValidationFailureSchema = Type.Object({
  status: Type.Literal(0),
  errors: Type.Record(Type.String(), Type.String()),
});
export type ValidationFailure = Static<typeof ValidationFailureSchema>;

/** Failure body B: one message. */
export const MessageFailureSchema = Type.Object({
  status: Type.Literal(0),
  error: Type.String(),
});
export type MessageFailure = Static<typeof MessageFailureSchema>;

export const OkSchema = Type.Object({ status: Type.Literal(1) });
