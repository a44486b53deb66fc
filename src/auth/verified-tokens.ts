// Signature checks remembered by the exact token text: verifying an HS256 JWT (base64 and JSON
// decoding, an HMAC) was ~4 % of a request's CPU, and a client sends the same token on every
// request. Only tokens that passed are kept, so forged tokens cannot fill the map; an entry is
// good until the token's own `exp`, the one claim whose verdict changes with time (the gateway
// issues no `nbf`; a token carrying one is not remembered). Bounded like the other caches.

export interface VerifiedClaims {
  jti: string;
  sub: string;
  /** Seconds since the epoch, as in the token. */
  exp: number;
}

export class VerifiedTokens {
  private readonly entries = new Map<string, VerifiedClaims>();

  /** `maxEntries`: CACHE_MAX_ENTRIES; when full, the token unused longest goes (as in TtlCache). */
  constructor(private readonly maxEntries: number) {}

  /** The claims of a token verified before and not expired since; undefined otherwise. */
  get(token: string, nowSeconds: number): VerifiedClaims | undefined {
    const claims = this.entries.get(token);
    if (!claims) return undefined;
    if (nowSeconds >= claims.exp) {
      this.entries.delete(token);
      return undefined;
    }
    // A use moves the token last, from half full on (see TtlCache.peek).
    if (this.entries.size * 2 >= this.maxEntries) {
      this.entries.delete(token);
      this.entries.set(token, claims);
    }
    return claims;
  }

  remember(token: string, claims: VerifiedClaims): void {
    if (!this.entries.delete(token) && this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, claims);
  }
}
