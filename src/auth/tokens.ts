// Issues and revokes bearer tokens. Every token is recorded by its jti so that it can be
// revoked before it expires.

import { randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { CacheInvalidation } from '../db/cache-invalidation.js';
import type { Database } from '../db/client.js';
import { NotFoundError } from '../errors/gateway-errors.js';
import { DirectoryError, type UserRecord } from '../directory/types.js';
import { tokenLifetime } from '../lib/duration.js';
import { quote } from '../lib/quote.js';

export const JWT_ALGORITHM = 'HS256';
export const JWT_ISSUER = 'line-gateway';

/** `30m`, `12h`, `30d`, `2w` → milliseconds; an unreadable, empty or too long lifetime is refused (422). */
export function parseDuration(text: string): number {
  const lifetime = tokenLifetime(text);
  if ('ms' in lifetime) return lifetime.ms;
  throw new DirectoryError('invalid', `Invalid duration ${JSON.stringify(quote(text))}: ${lifetime.problem}`);
}

export interface IssuedToken {
  token: string;
  id: string;
  expiresAt: Date;
}

export class TokenService {
  constructor(
    private readonly db: Database,
    private readonly key: KeyObject,
    private readonly invalidation: CacheInvalidation,
  ) {}

  async issue(user: UserRecord, ttl: string): Promise<IssuedToken> {
    if (!user.active) throw new DirectoryError('conflict', `User ${JSON.stringify(user.name)} is deactivated`);
    const ttlMs = parseDuration(ttl);
    const id = randomUUID();
    const issuedAt = new Date();
    const expiresAt = new Date(issuedAt.getTime() + ttlMs);
    await this.db.token.create({ data: { id, userId: user.id, issuedAt, expiresAt } });
    const token = jwt.sign({ su: user.superuser }, this.key, {
      algorithm: JWT_ALGORITHM,
      subject: user.id,
      jwtid: id,
      issuer: JWT_ISSUER,
      expiresIn: Math.floor(ttlMs / 1000),
    });
    return { token, id, expiresAt };
  }

  /**
   * What `revoke` would do, writing nothing (dry runs): the token's id and whether it is revoked
   * already (revoking it again changes nothing). An unknown token is refused as `revoke` refuses it.
   */
  async revocation(tokenOrId: string): Promise<{ id: string; alreadyRevoked: boolean }> {
    const id = tokenOrId.includes('.') ? jtiOf(tokenOrId) : tokenOrId;
    const row = await this.db.token.findUnique({ where: { id } });
    if (!row) throw new NotFoundError('No such token');
    return { id, alreadyRevoked: row.revokedAt !== null };
  }

  /** Revokes by token id (jti) or by the token itself; returns the id revoked. */
  async revoke(tokenOrId: string): Promise<string> {
    const id = tokenOrId.includes('.') ? jtiOf(tokenOrId) : tokenOrId;
    // Every replica's authenticator drops the token's cached state when this commits.
    const [result] = await this.invalidation.write(
      [{ kind: 'token', id }],
      [this.db.token.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } })],
    );
    if (result.count === 0) {
      const exists = await this.db.token.findUnique({ where: { id } });
      if (!exists) throw new NotFoundError('No such token');
    }
    return id;
  }
}

function jtiOf(token: string): string {
  const decoded = jwt.decode(token, { json: true });
  if (!decoded || typeof decoded.jti !== 'string')
    throw new DirectoryError('invalid', 'That is not a token issued by this gateway');
  return decoded.jti;
}
