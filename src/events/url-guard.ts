// Where a webhook may point: https to public addresses only, so that a superuser's endpoint (or
// a stolen superuser token) cannot make the gateway call its own network — loopback, private
// ranges, link-local, cloud metadata. The host is checked when the endpoint is registered and
// again at every connection (`guardedLookup`), so a name that later resolves to a private
// address (DNS rebinding) is refused too. WEBHOOK_ALLOW_PRIVATE_URLS=on lifts the rule (tests).

import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048;

export class WebhookUrlRefused extends Error {
  override readonly name = 'WebhookUrlRefused';
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 address embeds (v4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an address a webhook must not reach without the setting. */
export function isPrivateAddress(address: string): boolean {
  const unbracketed = address.replace(/^\[|\]$/g, '');
  // An IPv6 zone (fe80::1%eth0) names an interface, not a range.
  const zone = unbracketed.indexOf('%');
  const bare = zone < 0 ? unbracketed : unbracketed.slice(0, zone);
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const v4 = embeddedIpv4(bare);
  return v4 !== null ? blocked.check(v4, 'ipv4') : blocked.check(bare, 'ipv6');
}

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
    throw new WebhookUrlRefused('url must not point to a loopback, private, link-local or metadata address');
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
  if (addresses.some((entry) => isPrivateAddress(entry.address)))
    throw new WebhookUrlRefused('url must not point to a loopback, private, link-local or metadata address');
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
        const refused: NodeJS.ErrnoException = new WebhookUrlRefused(
          `${hostname} resolves to a loopback, private, link-local or metadata address`,
        );
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
