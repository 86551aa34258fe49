import { FailureError, InvalidInputError, type PasswordReminderBody, type RegisterBody } from "@fleet/contracts";
import { createUserWithReset, deleteSignedUpUser, issuePasswordReset, resetPassword, type Db } from "@fleet/db";
import type { Mailer } from "@fleet/mail";
import { generatePassword } from "../bootstrap.js";
import { worded } from "./refusals.js";

/** How long a mailed link (and its code) works. */
export const RESET_TTL_MS = 60 * 60_000;

export interface AccountsContext {
  db: Db;
  mailer: Mailer;
  /** FLEET_ALLOW_REGISTRATION */
  allowRegistration: boolean;
  /** Where the mailed links point: the server as its users reach it. */
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
}

export function resetLink(publicUrl: string, email: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/password_reset?${new URLSearchParams({ email, token })}`;
}

function linkMail(kind: "signup" | "reminder", email: string, token: string, publicUrl: string) {
  const link = resetLink(publicUrl, email, token);
  const opening = kind === "signup" ? `An account was opened for ${email}. Choose its password` : `Someone (we hope you) asked to reset the password of ${email}. Choose a new one`;
  return {
    to: email,
    subject: kind === "signup" ? "Welcome to Fleet: choose your password" : "Reset your Fleet password",
    text: [
      `${opening} within an hour at:`,
      "",
      link,
      "",
      `Or enter this code in your app: ${token}`,
      "",
      kind === "signup" ? "If you did not sign up, ignore this mail." : "If you did not ask, ignore this mail: your password stays as it is.",
    ].join("\n"),
  };
}

/** `register`: an account for `email` with no usable password yet, and a mail with the link to choose one. */
export async function register(ctx: AccountsContext, body: RegisterBody) {
  if (!ctx.allowRegistration) throw new FailureError(403, "Sign-up is closed on this server. Ask an administrator for an account.");
  // A random password nobody knows: the account is usable once its owner follows the link.
  const { user, token } = await worded(createUserWithReset(ctx.db, { email: body.email, password: generatePassword() }, RESET_TTL_MS), {});
  try {
    await ctx.mailer.send(linkMail("signup", user.email, token, ctx.publicUrl));
  } catch (err) {
    // Nothing half-done: without its mail the account could never be used, so it goes.
    await deleteSignedUpUser(ctx.db, user.id);
    ctx.log.error({ err }, "could not send the sign-up mail; the account was not kept");
    throw new FailureError(502, "The sign-up mail could not be sent. Try again later.");
  }
  return { status: 1 as const, email: user.email, message: `Check ${user.email} for a link to choose your password.` };
}

const REMINDED_MESSAGE = "If an account uses this email, a link to reset its password is on its way.";

/**
 * `password_reminder` asking for a link. The answer is the same, and as quick, whether or not
 * the address has an account: the mail goes out after the answer, and a failure is only logged.
 */
export async function remind(ctx: AccountsContext, email: string) {
  const issued = await issuePasswordReset(ctx.db, email, RESET_TTL_MS);
  if (issued) {
    void ctx.mailer.send(linkMail("reminder", issued.user.email, issued.token, ctx.publicUrl)).catch((err: unknown) => ctx.log.error({ err }, "could not send a password reminder"));
  }
  return { status: 1 as const, success: 1 as const, email, message: REMINDED_MESSAGE };
}

/** `password_reminder` with the mailed code: the new password, which also ends every session (a new api hash). */
export async function setPasswordWithCode(ctx: Pick<AccountsContext, "db">, body: Required<Pick<PasswordReminderBody, "email" | "code">> & PasswordReminderBody) {
  if (body.password === undefined) throw new InvalidInputError({ password: "The password field is required." });
  if (body.password_confirmation !== undefined && body.password_confirmation !== body.password) throw new InvalidInputError({ password: "The password confirmation does not match." });
  if (!(await resetPassword(ctx.db, body.email, body.code, body.password))) {
    throw new InvalidInputError({ code: "The code is wrong, used already or expired. Ask for a new reminder." });
  }
  return { status: 1 as const, success: 1 as const, email: body.email, message: "Your password has been changed. Log in with the new one." };
}

/** POST `password_reminder`: a code sets the password, an email alone asks for a link. */
export function reminderPost(ctx: AccountsContext, body: PasswordReminderBody) {
  return body.code === undefined ? remind(ctx, body.email) : setPasswordWithCode(ctx, { ...body, code: body.code });
}
