// Turns an Authorization header into the calling user, or refuses it. The algorithm is
// pinned (no `none`, no RSA/HMAC confusion), every token must carry an expiry and the id
// (jti) of a token the gateway issued, and revoked tokens and deactivated users are refused.
// Token state is cached per replica until its revocation is announced (src/db/cache-invalidation.ts).

import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { CacheInvalidation } from '../db/cache-invalidation.js';
import type { Database } from '../db/client.js';
import type { Directory } from '../directory/directory.js';
import type { UserRecord } from '../directory/types.js';
import { TtlCache } from '../lib/ttl-cache.js';
import { AuthenticationError } from './errors.js';
import { JWT_ALGORITHM, JWT_ISSUER } from './tokens.js';
import { VerifiedTokens, type VerifiedClaims } from './verified-tokens.js';

interface TokenState {
  userId: string;
  revoked: boolean;
}

export class Authenticator {
  private readonly tokens: TtlCache<string, TokenState | null>;
  private readonly verified: VerifiedTokens;

  constructor(
    private readonly db: Database,
    private readonly directory: Directory,
    private readonly key: KeyObject,
    invalidation: CacheInvalidation,
  ) {
    this.tokens = new TtlCache(invalidation);
    this.verified = new VerifiedTokens(invalidation.maxEntries);
    invalidation.subscribe((change) => {
      if (change.kind === 'token') this.tokens.delete(change.id);
      else if (change.kind === 'everything') this.tokens.clear();
    });
  }

  /**
   * The user behind `Authorization: Bearer <jwt>`; throws AuthenticationError otherwise. Several
   * headers are refused: which one names the caller would be a guess, and a proxy in front may
   * read another than this gateway does.
   */
  async authenticate(header: string | readonly string[] | null | undefined): Promise<UserRecord> {
    if (typeof header !== 'string' && header && header.length > 1)
      throw new AuthenticationError('Invalid authentication credentials: more than one Authorization header');
    if (typeof header !== 'string') header = header?.[0];
    if (!header) throw new AuthenticationError('Not authenticated');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new AuthenticationError('Invalid authentication credentials');
    const claims = this.verify(match[1]!);
    const state = await this.tokens.get(claims.jti, async () => {
      // One query reads the token and its user, and primes the directory's user cache.
      const prime = this.directory.userPrimer();
      const row = await this.db.token.findUnique({
        where: { id: claims.jti },
        select: { userId: true, revokedAt: true, user: true },
      });
      if (!row) return null;
      prime(row.user);
      // The user row's id, the same string the primed user record keeps (not a second copy).
      return { userId: row.user.id, revoked: row.revokedAt !== null };
    });
    if (!state) throw new AuthenticationError('Token is unknown: its id (jti) was not issued by this gateway');
    if (state.userId !== claims.sub) throw new AuthenticationError('Invalid authentication credentials');
    if (state.revoked) throw new AuthenticationError('Token has been revoked');
    const user = await this.directory.user(state.userId);
    if (!user || !user.active) throw new AuthenticationError('User is deactivated');
    return user;
  }

  /** The token's claims once its signature, algorithm, issuer and expiry are checked. */
  private verify(token: string): VerifiedClaims {
    const now = Math.floor(Date.now() / 1000);
    const known = this.verified.get(token, now);
    if (known) return known;
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.key, { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER }) as jwt.JwtPayload;
    } catch (error) {
      throw new AuthenticationError(
        error instanceof jwt.TokenExpiredError ? 'Token has expired' : 'Invalid authentication credentials',
      );
    }
    if (typeof claims.jti !== 'string' || typeof claims.sub !== 'string')
      throw new AuthenticationError('Invalid authentication credentials');
    // jsonwebtoken accepts a token without `exp` as never expiring; the gateway issues none.
    if (typeof claims.exp !== 'number') throw new AuthenticationError('Token has no expiry (exp)');
    const verified = { jti: claims.jti, sub: claims.sub, exp: claims.exp };
    if (claims.nbf === undefined) this.verified.remember(token, verified);
    return verified;
  }
}
