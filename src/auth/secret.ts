// The JWT signing key: JWT_SECRET when given, else a random secret generated once and kept
// in DATA_DIR so that tokens survive restarts. Kept as a KeyObject: verifying with a string
// secret costs ~50x more per request (design.md).

import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

export interface SigningKey {
  key: KeyObject;
  /** Where the key came from, for the start-up message (never the key itself). */
  source: 'environment' | 'generated' | 'data-dir';
}

/**
 * `tokensIssued`: whether the database already holds tokens. Then a secret is never generated:
 * those tokens were signed with one this DATA_DIR does not have (another replica's, or the
 * gateway's own DATA_DIR elsewhere), and a new one would silently refuse them all, or mint
 * tokens (the admin CLI's) that the running gateway refuses.
 */
export function resolveSigningKey(options: {
  secret: string | undefined;
  dataDir: string;
  tokensIssued: boolean;
}): SigningKey {
  if (options.secret) return { key: createSecretKey(Buffer.from(options.secret, 'utf8')), source: 'environment' };
  const file = join(options.dataDir, 'jwt-secret');
  if (existsSync(file)) {
    return { key: createSecretKey(Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8')), source: 'data-dir' };
  }
  if (options.tokensIssued)
    throw new ConfigError(
      `No JWT secret: JWT_SECRET is unset and ${file} does not exist, but the database holds tokens signed with one. ` +
        'Set JWT_SECRET, or DATA_DIR to the directory of the gateway that issued them.',
    );
  mkdirSync(options.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    // `wx` fails if another process wrote the file first; then theirs is the secret.
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
    return { key: createSecretKey(Buffer.from(secret, 'utf8')), source: 'generated' };
  } catch {
    return { key: createSecretKey(Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8')), source: 'data-dir' };
  }
}
