// Signature checks remembered by the exact token text: verifying an HS256 JWT (base64 and JSON
// decoding, an HMAC) was ~4 % of a request's CPU, and a client sends the same token on every
// request. Only tokens that passed are kept, so forged tokens cannot fill the map; an entry is
// good until the token's own `exp`, the one claim whose verdict changes with time (the gateway
// issues no `nbf`; a token carrying one is not remembered). Bounded like the other caches.
// Kept by the token's SHA-256, not its text: a token is ~300 characters, and the map held the
// whole Authorization header it was sliced from (~320 bytes per active user, a sixth of what a
// user costs; the digest is 32, computed in ~1 µs). Equal digests are equal tokens as far as
// anyone can find, so a lookup by digest admits exactly the tokens a lookup by text would.

import { hash } from 'node:crypto';
import { RecencyMap } from '../lib/recency-map.js';

export interface VerifiedClaims {
  jti: string;
  sub: string;
  /** Seconds since the epoch, as in the token. */
  exp: number;
}

export class VerifiedTokens {
  private readonly entries: RecencyMap<string, VerifiedClaims>;

  /** `maxEntries`: CACHE_MAX_ENTRIES; when full, the token unused longest goes. */
  constructor(maxEntries: number) {
    this.entries = new RecencyMap(maxEntries);
  }

  /** The claims of a token verified before and not expired since; undefined otherwise. */
  get(token: string, nowSeconds: number): VerifiedClaims | undefined {
    const key = digestOf(token);
    const claims = this.entries.get(key);
    if (!claims) return undefined;
    if (nowSeconds < claims.exp) return claims;
    this.entries.delete(key);
    return undefined;
  }

  remember(token: string, claims: VerifiedClaims): void {
    this.entries.set(digestOf(token), claims);
  }
}

/** The token's SHA-256 as a 32-character one-byte string (48 bytes of heap). */
function digestOf(token: string): string {
  return hash('sha256', token, 'binary');
}
