// Reads and writes the runtime settings. Every replica caches them until a change is announced
// (src/db/cache-invalidation.ts), so a change made anywhere takes effect everywhere at once,
// without a restart.

import type { CacheInvalidation } from '../db/cache-invalidation.js';
import type { Database } from '../db/client.js';
import { TtlCache } from '../lib/ttl-cache.js';
import { isUniqueViolation } from '../db/errors.js';
import {
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  SettingRuleViolation,
  type SettingKey,
  type SettingsValues,
} from './definitions.js';

export interface SettingView {
  key: SettingKey;
  /** JSON-encoded value. */
  value: string;
  description: string;
  updatedAt: Date;
}

interface Snapshot {
  values: SettingsValues;
  views: Map<SettingKey, SettingView>;
}

export class SettingsStore {
  private readonly cache: TtlCache<'all', Snapshot>;

  constructor(
    private readonly db: Database,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.cache = new TtlCache(invalidation);
    invalidation.subscribe((change) => {
      if (change.kind === 'settings' || change.kind === 'everything') this.cache.clear();
    });
  }

  /** Inserts the defaults that are missing; safe when several replicas start at once. */
  async ensureDefaults(): Promise<void> {
    const existing = new Set((await this.db.setting.findMany({ select: { key: true } })).map((row) => row.key));
    for (const key of SETTING_KEYS) {
      if (existing.has(key)) continue;
      try {
        await this.db.setting.create({ data: { key, value: JSON.stringify(SETTING_DEFINITIONS[key].defaultValue) } });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    this.cache.clear();
  }

  async values(): Promise<SettingsValues> {
    return (await this.snapshot()).values;
  }

  /**
   * The values when cached, else undefined (then call `values`): every request reads them two or
   * three times, and a cached read needs no turn of the microtask queue.
   */
  cachedValues(): SettingsValues | undefined {
    return this.cache.peek('all')?.values;
  }

  async list(): Promise<SettingView[]> {
    const { views } = await this.snapshot();
    return SETTING_KEYS.map((key) => views.get(key)!);
  }

  async get(key: SettingKey): Promise<SettingView> {
    return (await this.snapshot()).views.get(key)!;
  }

  /** Validates `rawValue` (JSON text) against the spec's rules, stores it, returns the new view. */
  async update(key: SettingKey, rawValue: string): Promise<SettingView> {
    const value = await this.validate(key, rawValue);
    await this.invalidation.write(
      [{ kind: 'settings' }],
      [this.db.setting.upsert({ where: { key }, update: { value }, create: { key, value } })],
    );
    return this.get(key);
  }

  /**
   * The JSON text `update` would store for `rawValue`, checked against the spec's rules and
   * the settings as they are now; stores nothing (dry runs). A broken rule is a SettingRuleViolation.
   */
  async validate(key: SettingKey, rawValue: string): Promise<string> {
    let decoded: unknown;
    try {
      decoded = JSON.parse(rawValue);
    } catch {
      throw new SettingRuleViolation(
        'value must be valid JSON (a string value needs its own quotes, e.g. "\\"321\\"")',
      );
    }
    // Validate against fresh values, not the cache: rules compare settings with each other.
    this.cache.clear();
    const current = await this.values();
    const definition = SETTING_DEFINITIONS[key] as { validate(value: unknown, current: SettingsValues): unknown };
    return JSON.stringify(definition.validate(decoded, current));
  }

  private snapshot(): Promise<Snapshot> {
    return this.cache.get('all', async () => {
      const rows = await this.db.setting.findMany();
      const byKey = new Map(rows.map((row) => [row.key, row]));
      const values = {} as Record<SettingKey, unknown>;
      const views = new Map<SettingKey, SettingView>();
      for (const key of SETTING_KEYS) {
        const row = byKey.get(key);
        const definition = SETTING_DEFINITIONS[key];
        const value = row ? (JSON.parse(row.value) as unknown) : definition.defaultValue;
        values[key] = value;
        views.set(key, {
          key,
          value: row?.value ?? JSON.stringify(definition.defaultValue),
          description: definition.description,
          updatedAt: row?.updatedAt ?? new Date(0),
        });
      }
      return { values: values as unknown as SettingsValues, views };
    });
  }
}
