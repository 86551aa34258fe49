import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { PrivateAddressError, isPublicAddress, publicOnlyLookup } from "./public-address.js";

/** An HTTP request made on a user's behalf: to their SMS gateway, or an alert's webhook. */
export interface OutboundRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/**
 * One HTTP exchange; resolves with the answer's status (its body is drained, not read).
 * node:http rather than fetch, for its `lookup` option: the private-address check then
 * applies to the address actually connected to. An IP literal skips lookup, so it is checked
 * here first. Redirects are not followed. Unless `allowPrivate` (OUTBOUND_ALLOW_PRIVATE), the
 * target must be at a public address: a user's URL must not become a way into the server's
 * own network.
 */
export function outboundRequest(req: OutboundRequest, opts: { timeoutMs: number; allowPrivate: boolean }): Promise<number> {
  const host = req.url.hostname.replace(/^\[|\]$/g, "");
  if (!opts.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) return Promise.reject(new PrivateAddressError(host));
  const send = req.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const r = send(req.url, { method: req.method, headers: req.headers, signal: AbortSignal.timeout(opts.timeoutMs), ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }) }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    r.on("error", reject);
    r.end(req.body);
  });
}
