import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";

/*
 * Signing up and getting back into an account: `register`, `password_reminder` (GET, or POST
 * with only an email, mails a link and a code; POST with the code sets a new password).
 */

/** Blanks around the address are allowed and dropped, as Laravel's TrimStrings does: a phone keyboard's autocomplete adds one. */
const Email = Type.String({ minLength: 3, maxLength: 255, pattern: "^\\s*[^@\\s]+@[^@\\s]+\\.[^@\\s]+\\s*$" });

export const RegisterBodySchema = Type.Object({ email: Email });
export type RegisterBody = Static<typeof RegisterBodySchema>;

/** `email`: the address the mail went to (the vendor's answer requires it). */
export const RegisterResponseSchema = Type.Object({ status: StatusOk, email: Type.String(), message: Type.String() });

export const PasswordReminderQuerySchema = Type.Object({ email: Email });

/** POST: only `email` asks for a link, as GET does; `code` and `password` set the new password. */
export const PasswordReminderBodySchema = Type.Object({
  email: Email,
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "the code (token) from the reminder's mail" })),
  password: Type.Optional(Type.String({ minLength: 6, maxLength: 255 })),
  password_confirmation: Type.Optional(Type.String({ maxLength: 255, description: "must match password when given" })),
});
export type PasswordReminderBody = Static<typeof PasswordReminderBodySchema>;

/**
 * The vendor answers `success` and the `email` asked about (its Swagger requires it: the
 * address as sent, which tells nothing about whether it has an account); `status` as every
 * other answer of the API.
 */
export const PasswordReminderResponseSchema = Type.Object({ status: StatusOk, success: Type.Literal(1), email: Type.String(), message: Type.String() });

/** The page the mailed link opens. */
export const PasswordResetPageQuerySchema = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 255 })),
  token: Type.Optional(Type.String({ maxLength: 255 })),
});

/** What the reset page's form posts. */
export const PasswordResetFormSchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255 }),
  token: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 6, maxLength: 255 }),
  password_confirmation: Type.Optional(Type.String({ maxLength: 255 })),
});

export const RegistrationClosedSchema = Type.Object({ status: Type.Literal(0), error: Type.String() }, { description: "Sign-up is closed on this server" });
