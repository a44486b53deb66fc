// The webhook signature, in Stripe's style: `Line-Gateway-Signature: t=<unix seconds>,v1=<hex>`
// where v1 is HMAC-SHA256(secret, "<t>.<raw body>"). The timestamp is signed so that a captured
// delivery cannot be replayed later by someone else; receivers check it is recent.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Line-Gateway-Signature';

/** How old a signature a receiver should accept by default (seconds). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret: whsec_ and 32 random bytes (base64url). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const hmac = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/** The receiver's check (also what docs/webhooks.md shows): a v1 matches and `t` is recent. */
export function verifySignature(
  header: string,
  body: string,
  secret: string,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  return parts
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
