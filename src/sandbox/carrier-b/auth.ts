// HTTP Basic authentication for the carrier_b sandbox (`accountId:apiSecret`), compared in
// constant time so a caller cannot learn the secret from response timing.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface CarrierBCredentials {
  accountId: string;
  apiSecret: string;
}

// Hashing first gives both sides the same length, which timingSafeEqual needs, without
// leaking the expected length through an early exit.
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function basicAuthenticator(credentials: CarrierBCredentials): (headers: IncomingHttpHeaders) => boolean {
  if (credentials.accountId === '' || credentials.apiSecret === '')
    throw new Error('carrier_b sandbox needs an account id and an API secret');
  if (credentials.accountId.includes(':')) throw new Error('carrier_b account ids cannot contain a colon');
  const expected = digest(`${credentials.accountId}:${credentials.apiSecret}`);

  return (headers) => {
    const header = headers.authorization;
    if (typeof header !== 'string') return false;
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!match?.[1]) return false;
    const presented = Buffer.from(match[1], 'base64').toString('utf8');
    return timingSafeEqual(digest(presented), expected);
  };
}
