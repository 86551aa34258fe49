/*
 * The client of an account's own SMS gateway (edit_setup's sms_gateway_* settings): one
 * HTTP request per message, to the configured URL with the number and the text.
 *
 *   GET  <url>?to=<number>&message=<text>[&from=<senders_phone>]   (the URL's own query kept)
 *   POST <url>  to=…&message=…[&from=…]    application/x-www-form-urlencoded
 *   POST <url>  {"to", "message"[, "from"]} application/json when encoding is json
 *
 * With authentication 1 the request carries HTTP basic auth (username, password). Any
 * 2xx answer is success; redirects are not followed. Unless the server allows it
 * (OUTBOUND_ALLOW_PRIVATE), the gateway must be at a public address: a user's URL must
 * not become a way into the server's own network.
 */
import type { User } from "@fleet/db";
import { PrivateAddressError } from "./public-address.js";
import { outboundRequest, type OutboundRequest } from "./request.js";

export interface SmsGatewayConfig {
  url: URL;
  method: "get" | "post";
  json: boolean;
  auth?: { username: string; password: string };
  sender?: string;
}

export interface SmsMessage {
  to: string;
  message: string;
}

export type SmsResult = { ok: true } | { ok: false; error: string };

/** Why a gateway URL that parses cannot be called, if it cannot: edit_setup refuses it with this when saved, sending when used. */
export function gatewayUrlProblem(url: URL): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return "The SMS gateway URL must be an http or https URL.";
  if (url.username !== "" || url.password !== "") return "The SMS gateway URL may not carry credentials; use authentication with a username and password.";
  return undefined;
}

/**
 * The account's gateway, or why it cannot be used. Only http(s) URLs without embedded
 * credentials are called; the gateway app method has no app to talk to here.
 */
export function smsGatewayOf(user: User): { config: SmsGatewayConfig } | { problem: string } {
  const p = user.smsGatewayParams;
  if (!user.smsGateway) return { problem: "The account has no SMS gateway: enable it in the setup (sms_gateway) first." };
  if (p.request_method === "app") return { problem: "The account's SMS gateway is set to the gateway app, which this server does not support; use the get or post request method." };
  let url: URL;
  try {
    url = new URL(user.smsGatewayUrl);
  } catch {
    return { problem: "The account has no SMS gateway URL: set sms_gateway_url in the setup first." };
  }
  const problem = gatewayUrlProblem(url);
  if (problem !== undefined) return { problem };
  return {
    config: {
      url,
      method: p.request_method,
      json: p.encoding === "json",
      ...(p.authentication === 1 ? { auth: { username: p.username, password: p.password } } : {}),
      ...(p.senders_phone ? { sender: p.senders_phone } : {}),
    },
  };
}

function fields(config: SmsGatewayConfig, sms: SmsMessage): Record<string, string> {
  return { to: sms.to, message: sms.message, ...(config.sender ? { from: config.sender } : {}) };
}


function request(config: SmsGatewayConfig, sms: SmsMessage): OutboundRequest {
  const headers: Record<string, string> = {};
  if (config.auth) headers.authorization = `Basic ${Buffer.from(`${config.auth.username}:${config.auth.password}`).toString("base64")}`;
  const url = new URL(config.url);
  if (config.method === "get") {
    for (const [k, v] of Object.entries(fields(config, sms))) url.searchParams.set(k, v);
    return { url, method: "GET", headers };
  }
  if (config.json) return { url, method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(fields(config, sms)) };
  return { url, method: "POST", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields(config, sms)).toString() };
}

/** Why a request failed, in words a user can act on; the cause's code when there is one. */
function reason(err: unknown, timeoutMs: number): string {
  if (err instanceof PrivateAddressError) return "The SMS gateway URL points at a private or reserved address, which this server does not call.";
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `The SMS gateway did not answer within ${timeoutMs} ms.`;
  const errCode = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  const code = typeof errCode === "string" ? ` (${errCode})` : "";
  return `The SMS gateway could not be reached${code}.`;
}

/** Sends one SMS; never throws. */
export async function sendSms(config: SmsGatewayConfig, sms: SmsMessage, timeoutMs: number, allowPrivate = false): Promise<SmsResult> {
  try {
    const status = await outboundRequest(request(config, sms), { timeoutMs, allowPrivate });
    return status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `The SMS gateway answered HTTP ${status}.` };
  } catch (err) {
    return { ok: false, error: reason(err, timeoutMs) };
  }
}

/**
 * Sends each message, a few at a time so a slow gateway does not hold the request for
 * long; results are in the order of `messages`. Messages not yet started after
 * `budgetMs` are not sent and fail, bounding the whole call.
 */
export async function sendAllSms(
  config: SmsGatewayConfig,
  messages: readonly SmsMessage[],
  opts: { timeoutMs: number; allowPrivate?: boolean; concurrency?: number; budgetMs?: number },
): Promise<SmsResult[]> {
  const results: SmsResult[] = new Array(messages.length);
  const deadline = Date.now() + (opts.budgetMs ?? opts.timeoutMs * 3);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < messages.length; i = next++) {
      const left = deadline - Date.now();
      results[i] = left <= 0 ? { ok: false, error: "Not sent: the SMS gateway was too slow for the messages before it." } : await sendSms(config, messages[i]!, Math.min(opts.timeoutMs, left), opts.allowPrivate);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, messages.length) }, worker));
  return results;
}
