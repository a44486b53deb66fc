// Where a webhook may point: https to public addresses only, so that a superuser's endpoint (or
// a stolen superuser token) cannot make the gateway call its own network — loopback, private
// ranges, link-local, cloud metadata, reserved ranges, nor an IPv6 form that tunnels to one of
// them. The host is checked when the endpoint is registered and again at every connection
// (`guardedLookup`), so a name that later resolves to a private address (DNS rebinding) is
// refused too. WEBHOOK_ALLOW_PRIVATE_URLS=on lifts the rule (tests).

import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048;

export class WebhookUrlRefused extends Error {
  override readonly name = 'WebhookUrlRefused';
}

/** IPv4 ranges a webhook must not reach: IANA's special-purpose ranges that are not globally reachable. */
const blockedIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blockedIpv4.addSubnet(network, prefix, 'ipv4');

/** IPv6 ranges a webhook must not reach (those that embed an IPv4 address are judged by it instead). */
const blockedIpv6 = new BlockList();
for (const [network, prefix] of [
  ['64:ff9b:1::', 48], // local-use NAT64: where the IPv4 address sits depends on the operator's prefix
  ['100::', 64], // discard-only
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside sites)
  ['ff00::', 8], // multicast
] as const)
  blockedIpv6.addSubnet(network, prefix, 'ipv6');

/**
 * IPv6 forms whose packets end up at an IPv4 address they carry in their last 32 bits: so an
 * address of these is as private as that IPv4 address. `::/96` (IPv4-compatible, deprecated)
 * holds `::` and `::1` too, judged as 0.0.0.0 and 0.0.0.1, both refused.
 */
const lastWordIpv4 = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64, well-known prefix
] as const)
  lastWordIpv4.addSubnet(network, prefix, 'ipv6');
const sixToFour = new BlockList();
sixToFour.addSubnet('2002::', 16, 'ipv6'); // the IPv4 address in bits 16–47
const teredo = new BlockList();
teredo.addSubnet('2001::', 32, 'ipv6'); // the client's IPv4 address, inverted, in the last 32 bits

/** The 16 bytes of an IPv6 address (one `isIP` accepts, zone removed), a dotted IPv4 tail included. */
function ipv6Bytes(address: string): number[] {
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const groupsOf = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const groups = [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return groups.flatMap((group) => [group >> 8, group & 255]);
}

/** The IPv4 address an IPv6 address sends its packets to (mapped, translated, NAT64, 6to4, Teredo), if any. */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (lastWordIpv4.check(address, 'ipv6')) return bytes.slice(12).join('.');
  if (sixToFour.check(address, 'ipv6')) return bytes.slice(2, 6).join('.');
  if (teredo.check(address, 'ipv6'))
    return bytes
      .slice(12)
      .map((byte) => byte ^ 255)
      .join('.');
  return null;
}

/** True for an address a webhook must not reach without the setting. */
export function isPrivateAddress(address: string): boolean {
  const unbracketed = address.replace(/^\[|\]$/g, '');
  // An IPv6 zone (fe80::1%eth0) names an interface, not a range.
  const zone = unbracketed.indexOf('%');
  const bare = zone < 0 ? unbracketed : unbracketed.slice(0, zone);
  const family = isIP(bare);
  if (family === 4) return blockedIpv4.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  // The simplest rule that holds for every tunnelling form: judge the IPv4 address it reaches.
  const v4 = embeddedIpv4(bare);
  return v4 !== null ? blockedIpv4.check(v4, 'ipv4') : blockedIpv6.check(bare, 'ipv6');
}

/** What a refused address is, as the refusals say it. */
const RANGES = 'a loopback, private, link-local, metadata or reserved address';
const REFUSED_ADDRESS = `url must not point to ${RANGES}`;

/** Names that mean this machine or its private network whatever DNS says. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain)$/i;

/** Parses and checks the URL's form (scheme, credentials, literal host); DNS is checked separately. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    throw new WebhookUrlRefused(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefused('url must be an absolute URL such as https://hooks.example.com/line-events');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new WebhookUrlRefused(allowPrivate ? 'url must use https or http' : 'url must use https');
  if (url.username || url.password) throw new WebhookUrlRefused('url must not carry a user name or password');
  if (url.hash) throw new WebhookUrlRefused('url must not have a fragment (#…)');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (LOCAL_NAMES.test(host) || (isIP(host) !== 0 && isPrivateAddress(host)))
    throw new WebhookUrlRefused(REFUSED_ADDRESS);
  return url;
}

/** Resolves the URL's host and refuses it when any of its addresses is private. */
export async function checkResolvedHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate || isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    lookup(url.hostname, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => {
    throw new WebhookUrlRefused(`url host ${url.hostname} does not resolve`);
  });
  if (addresses.some((entry) => isPrivateAddress(entry.address))) throw new WebhookUrlRefused(REFUSED_ADDRESS);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the delivery connections: resolves as dns.lookup does and fails the connection
 * when an address is private, so the check holds for the address actually connected to.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) {
        const refused: NodeJS.ErrnoException = new WebhookUrlRefused(`${hostname} resolves to ${RANGES}`);
        refused.code = 'EADDRNOTALLOWED';
        return callback(refused, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
