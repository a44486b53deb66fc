// The runtime settings: the spec's five and the gateway's own `line_ownership` and
// `persisted_operations_only`, with
// defaults, descriptions and the PUT validation rules. Values are JSON-encoded strings,
// exactly as the spec exposes them.

import { CARRIER_IDS, type CarrierId } from '../carriers/types.js';

export const SETTING_KEYS = [
  'default_carrier',
  'carriers_enabled',
  'carrier_321_display_name',
  'carrier_carrier_b_display_name',
  'maintenance_mode',
  'line_ownership',
  'persisted_operations_only',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export interface SettingsValues {
  default_carrier: CarrierId;
  carriers_enabled: Record<CarrierId, boolean>;
  carrier_321_display_name: string;
  carrier_carrier_b_display_name: string;
  maintenance_mode: boolean;
  line_ownership: LineOwnershipMode;
  persisted_operations_only: boolean;
}

/**
 * `enforced`: a user acts only on their own lines, and on lines nobody owns or the gateway never
 * saw; `strict`: only on their own lines (and on SIMs no line holds, to activate them); `off`: on
 * any line (single-team deployments).
 */
export const LINE_OWNERSHIP_MODES = ['enforced', 'strict', 'off'] as const;
export type LineOwnershipMode = (typeof LINE_OWNERSHIP_MODES)[number];

/** A rejected PUT: the message is shown to the caller as a 422 detail. */
export class SettingRuleViolation extends Error {
  override readonly name = 'SettingRuleViolation';
}

interface SettingDefinition<V> {
  description: string;
  defaultValue: V;
  /** Checks a decoded value against the other current values; returns the value to store. */
  validate(value: unknown, current: SettingsValues): V;
}

const isCarrier = (value: unknown): value is CarrierId =>
  typeof value === 'string' && (CARRIER_IDS as readonly string[]).includes(value);

function displayName(carrier: CarrierId): SettingDefinition<string> {
  return {
    description: `Display name of carrier ${carrier} in user interfaces`,
    defaultValue: carrier === '321' ? 'Carrier 321' : 'Carrier B',
    validate(value) {
      if (typeof value !== 'string' || value.trim() === '' || value.length > 100) {
        throw new SettingRuleViolation('value must be a JSON string of 1 to 100 characters');
      }
      return value;
    },
  };
}

export const SETTING_DEFINITIONS: { [K in SettingKey]: SettingDefinition<SettingsValues[K]> } = {
  default_carrier: {
    description: 'Default carrier for new users and plans',
    defaultValue: '321',
    validate(value, current) {
      if (!isCarrier(value))
        throw new SettingRuleViolation(
          `value must be one of ${CARRIER_IDS.map((id) => `"${id}"`).join(', ')} (a JSON string)`,
        );
      if (!current.carriers_enabled[value])
        throw new SettingRuleViolation(`default_carrier cannot be set to disabled carrier ${value}`);
      return value;
    },
  },
  carriers_enabled: {
    description: 'Global enable/disable per carrier (JSON object of carrier id to boolean)',
    defaultValue: { '321': true, carrier_b: true },
    validate(value, current) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new SettingRuleViolation('value must be a JSON object mapping carrier ids to booleans');
      }
      const next = { ...current.carriers_enabled };
      for (const [carrier, enabled] of Object.entries(value)) {
        if (!isCarrier(carrier))
          throw new SettingRuleViolation(`unknown carrier ${JSON.stringify(carrier)} in carriers_enabled`);
        if (typeof enabled !== 'boolean')
          throw new SettingRuleViolation(`carriers_enabled.${carrier} must be true or false`);
        next[carrier] = enabled;
      }
      if (!CARRIER_IDS.some((carrier) => next[carrier]))
        throw new SettingRuleViolation('at least one carrier must stay enabled');
      if (!next[current.default_carrier]) {
        throw new SettingRuleViolation(`the default carrier ${current.default_carrier} cannot be disabled`);
      }
      return next;
    },
  },
  carrier_321_display_name: displayName('321'),
  carrier_carrier_b_display_name: displayName('carrier_b'),
  maintenance_mode: {
    description: 'When true, all carrier operations are disabled and answer 503',
    defaultValue: false,
    validate(value) {
      if (typeof value !== 'boolean') throw new SettingRuleViolation('value must be true or false');
      return value;
    },
  },
  line_ownership: {
    description:
      'Whether a user may act only on the lines they own: "enforced" (default: their own, and lines nobody owns or the gateway has never seen), "strict" (their own only; SIMs no line holds stay open to activation), or "off" for single-team deployments',
    defaultValue: 'enforced',
    validate(value) {
      if (!(LINE_OWNERSHIP_MODES as readonly unknown[]).includes(value)) {
        throw new SettingRuleViolation(
          `value must be one of ${LINE_OWNERSHIP_MODES.map((mode) => `"${mode}"`).join(', ')} (a JSON string)`,
        );
      }
      return value as LineOwnershipMode;
    },
  },
  persisted_operations_only: {
    description:
      'When true, GraphQL accepts from non-superusers only the operations of the allow-list (PERSISTED_OPERATIONS_FILE), by hash or by their exact document; superusers may still send any document',
    defaultValue: false,
    validate(value) {
      if (typeof value !== 'boolean') throw new SettingRuleViolation('value must be true or false');
      return value;
    },
  },
};

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

export function displayNameKey(carrier: CarrierId): 'carrier_321_display_name' | 'carrier_carrier_b_display_name' {
  return carrier === '321' ? 'carrier_321_display_name' : 'carrier_carrier_b_display_name';
}
