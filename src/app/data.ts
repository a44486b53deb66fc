// The database side of the gateway on its own: migrated database, default settings, users and
// plans, tokens and the signing key. The admin CLI needs only this; keeping it apart from
// application.ts spares each CLI command the carriers, sandboxes and rate limiter (~2 s of imports).

import { resolveSigningKey, type SigningKey } from '../auth/secret.js';
import { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { Directory } from '../directory/directory.js';
import { SettingsStore } from '../settings/store.js';
import { CacheInvalidation, cacheChannel } from '../db/cache-invalidation.js';
import { openDatabase, parseDatabaseUrl, type Database, type DatabaseTarget } from '../db/client.js';
import { migrate } from '../db/migrate.js';

export interface DataServices {
  db: Database;
  target: DatabaseTarget;
  /** Announces changes to cached data; the server also listens for other replicas' (application.ts). */
  invalidation: CacheInvalidation;
  directory: Directory;
  settings: SettingsStore;
  tokens: TokenService;
  signingKey: SigningKey;
  close(): Promise<void>;
}

/** Migrates the database, inserts missing default settings and opens the data services. */
export async function openData(
  config: Config,
  logger?: Logger,
  options: { onQuery?: (sql: string) => void } = {},
): Promise<DataServices> {
  const target = parseDatabaseUrl(config.DATABASE_URL);
  await migrate(target);
  const db = await openDatabase(target, { logger, onQuery: options.onQuery });
  const invalidation = new CacheInvalidation(db, config.CACHE_TTL_MS, cacheChannel(target), config.CACHE_MAX_ENTRIES);
  const settings = new SettingsStore(db, invalidation);
  await settings.ensureDefaults();
  const tokensIssued = !config.JWT_SECRET && (await db.token.findFirst({ select: { id: true } })) !== null;
  const signingKey = resolveSigningKey({ secret: config.JWT_SECRET, dataDir: config.DATA_DIR, tokensIssued });
  return {
    db,
    target,
    invalidation,
    directory: new Directory(db, invalidation),
    settings,
    tokens: new TokenService(db, signingKey.key, invalidation),
    signingKey,
    close: () => db.$disconnect(),
  };
}
