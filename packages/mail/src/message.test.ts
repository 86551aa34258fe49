import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { MailError } from "./error.js";
import { checkMessage, MailMessageSchema, MAX_RECIPIENTS, type MailMessage } from "./message.js";

const base: MailMessage = { to: "ops@example.com", subject: "Alert", text: "body" };

function problem(message: unknown): string {
  try {
    checkMessage(message as MailMessage);
  } catch (err) {
    expect(err).toBeInstanceOf(MailError);
    expect((err as MailError).code).toBe("invalid_message");
    return (err as MailError).message;
  }
  throw new Error("expected the message to be refused");
}

describe("MailMessageSchema and checkMessage", () => {
  it.each([
    "ops@example.com",
    "first.last+tag@sub.example.co.uk",
    "no-reply@fleet.local",
    "admin@localhost",
    "Fleet <no-reply@fleet.local>",
    '"Fleet, Inc." <no-reply@fleet.local>',
    "Zoë <zoë@exämple.de>",
  ])("takes %j as an address", (to) => {
    expect(checkMessage({ ...base, to }).to).toEqual([to]);
    expect(Value.Check(MailMessageSchema, { ...base, to })).toBe(true);
  });

  it.each([
    "",
    "bob",
    "bob@",
    "@example.com",
    "bob@@example.com",
    "bob@exa mple.com",
    "bob smith@example.com",
    "bob@example.com.",
    "bob@.example.com",
    "bob..x@example.com",
    "bob@-example.com",
    "Bob <bob@example.com",
    "bob@example.com\r\nBcc: everyone@example.com",
    "Bob\n <bob@example.com>",
    "a@b.c, d@e.f",
    "bo\u0000b@example.com",
  ])("refuses %j as a recipient, saying which", (to) => {
    expect(problem({ ...base, to })).toBe(`to: ${JSON.stringify(to)} is not a mail address (expected name@example.com or Name <name@example.com>)`);
    expect(Value.Check(MailMessageSchema, { ...base, to })).toBe(false);
  });

  it("names the position of a bad recipient in a list, and a bad sender", () => {
    expect(problem({ ...base, to: ["ops@example.com", "nope"] })).toMatch(/^to\[1\]: "nope" is not a mail address/);
    expect(problem({ ...base, from: "nope" })).toMatch(/^from: "nope" is not a mail address/);
    expect(problem({ ...base, to: [42] })).toMatch(/^to\[0\]: 42 is not a mail address/);
  });

  it("needs one to MAX_RECIPIENTS recipients", () => {
    expect(problem({ ...base, to: [] })).toBe("to: a mail needs at least one recipient");
    const many = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `u${i}@example.com`);
    expect(problem({ ...base, to: many })).toBe(`to: ${MAX_RECIPIENTS + 1} recipients, at most ${MAX_RECIPIENTS} per mail`);
    expect(checkMessage({ ...base, to: many.slice(1) }).to).toHaveLength(MAX_RECIPIENTS);
  });

  it("refuses a subject that would start a new header, and never quotes a body", () => {
    expect(problem({ ...base, subject: "Hi\r\nBcc: x@example.com" })).toMatch(/^subject: /);
    expect(problem({ ...base, subject: "" })).toMatch(/^subject: /);
    const err = problem({ ...base, text: 42, html: "reset token=s3cr3t" });
    expect(err).toMatch(/^text: /);
    expect(err).not.toContain("s3cr3t");
    expect(problem({ ...base, cc: "x@example.com" })).toMatch(/cc|additional/i);
  });

  it("takes attachments as bytes with a filename and an optional content type", () => {
    const ok = checkMessage({ ...base, attachments: [{ filename: "a.csv", content: Buffer.from("x"), contentType: "text/csv; charset=utf-8" }] });
    expect(ok.attachments).toHaveLength(1);
    expect(problem({ ...base, attachments: [{ filename: "a.csv", content: "x" }] })).toMatch(/^attachments\/0\/content: /);
    expect(problem({ ...base, attachments: [{ filename: "a\r\n.csv", content: Buffer.from("x") }] })).toMatch(/^attachments\/0\/filename: /);
    expect(problem({ ...base, attachments: [{ filename: "a.csv", content: Buffer.from("x"), contentType: "text/csv\r\nX: y" }] })).toMatch(/^attachments\/0\/contentType: /);
    expect(problem({ ...base, attachments: [{ filename: "a.csv", content: Buffer.from("x"), path: "/etc/passwd" }] })).toMatch(/^attachments\/0/);
  });
});
