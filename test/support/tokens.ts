// Tokens made by hand for the authentication tests: signed with the gateway's claims (or a
// wrong key or algorithm), unsigned (`alg: none`), and the jti of an issued token.

import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TEST_JWT_SECRET } from './gateway.js';

/** A token signed by hand with the gateway's claims (issuer, subject, jti); `exp: null` leaves expiry out. */
export function signToken(
  claims: { sub: string; jti?: string; exp?: number | null },
  options: { secret?: string; algorithm?: jwt.Algorithm; key?: jwt.Secret } = {},
): string {
  const { sub, jti = randomUUID(), exp = Math.floor(Date.now() / 1000) + 3600 } = claims;
  return jwt.sign(
    { su: false, sub, jti, iss: 'line-gateway', ...(exp === null ? {} : { exp }) },
    options.key ?? options.secret ?? TEST_JWT_SECRET,
    {
      algorithm: options.algorithm ?? 'HS256',
    },
  );
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token (`alg: none`) carrying otherwise valid claims. */
export function unsignedToken(claims: { sub: string; jti: string }): string {
  const payload = {
    su: true,
    sub: claims.sub,
    jti: claims.jti,
    iss: 'line-gateway',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
  };
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
}

/** The jti of a token issued by the gateway. */
export function jtiOf(token: string): string {
  const decoded = jwt.decode(token, { json: true });
  if (!decoded?.jti) throw new Error('token without jti');
  return decoded.jti;
}
