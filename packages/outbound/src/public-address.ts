import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Addresses a request made on a user's behalf (their SMS gateway URL, an alert's webhook) must not reach:
 * loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unspecified, multicast and reserved ranges, in IPv4 and IPv6 (IPv4-mapped included).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
  blocked.addSubnet(`::ffff:${net}`, 96 + prefix, "ipv6");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
  constructor(host: string) {
    super(`${host} resolves to a private or reserved address`);
    this.name = "PrivateAddressError";
  }
}

/**
 * A `lookup` for http.request that resolves as usual but refuses private addresses. It
 * runs when the socket connects, so a name that resolved to a public address when the
 * URL was checked cannot be switched to a private one for the request itself.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, "", 4);
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    if (allowed.length === 0) return callback(new PrivateAddressError(hostname), "", 4);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};
