import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Addresses a request made on a user's behalf (their SMS gateway URL, an alert's webhook) must not reach:
 * loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unspecified, documentation (TEST-NET), multicast and reserved ranges, in IPv4 and IPv6
 * (IPv4-mapped included; NAT64 and 6to4 by the IPv4 address they carry).
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
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
  blocked.addSubnet(`::ffff:${net}`, 96 + prefix, "ipv6");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** The 16 bytes of an IPv6 address in any of its written forms (`::`, a dotted IPv4 tail). */
function ipv6Bytes(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted ? address.slice(0, dotted.index) + "0:0" : address;
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (p: string | undefined) => (p ? p.split(":").map((h) => parseInt(h, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const words = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (dotted) bytes.splice(12, 4, ...dotted.slice(1).map(Number));
  return bytes;
}

/** The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address reaches, else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const isNat64 = b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.slice(4, 12).every((x) => x === 0);
  if (isNat64) return b.slice(12).join(".");
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6).join(".");
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blocked.check(address, "ipv4");
  if (blocked.check(address, "ipv6")) return false;
  const v4 = embeddedIpv4(address);
  return v4 === undefined || !blocked.check(v4, "ipv4");
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
