// GET /settings/, GET/PUT /settings/{key}, GET /settings/carriers/status (superuser only).

import { z } from 'zod';
import { quote } from '../../lib/quote.js';
import { InputRefusal, NotFoundError } from '../../errors/gateway-errors.js';
import { CARRIER_IDS } from '../../carriers/types.js';
import { SettingRuleViolation, displayNameKey, isSettingKey } from '../../settings/definitions.js';
import { defineOperation } from '../define.js';
import { capped } from '../schemas/fields.js';
import { carrierStatus, settingRecord, settingView } from './schemas.js';

// The largest value a setting takes is a 100-character display name, JSON-escaped.
const MAX_SETTING_VALUE = 1024;

const keyParameter = capped('key', 64)
  .min(1)
  .describe(
    'Setting name: default_carrier, carriers_enabled, carrier_321_display_name, carrier_carrier_b_display_name, maintenance_mode, line_ownership or persisted_operations_only',
  );

export const settings = defineOperation({
  name: 'settings',
  kind: 'query',
  description: 'Every runtime setting with its JSON-encoded value (superuser only)',
  rest: { method: 'GET', path: '/settings/' },
  input: z.object({}),
  output: z.array(settingRecord),
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services }) => ({ status: 200, body: (await services.settings.list()).map(settingView) }),
});

export const setting = defineOperation({
  name: 'setting',
  kind: 'query',
  description: 'One runtime setting (superuser only)',
  rest: { method: 'GET', path: '/settings/{key}' },
  input: z.object({ key: keyParameter }),
  output: settingRecord,
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    if (!isSettingKey(input.key)) throw new NotFoundError(`Setting ${quote(input.key)} not found`);
    return { status: 200, body: settingView(await services.settings.get(input.key)) };
  },
});

export const updateSetting = defineOperation({
  name: 'updateSetting',
  kind: 'mutation',
  description:
    'Changes a runtime setting (superuser only). `value` is JSON: a string value carries its own quotes ("\\"321\\""). Rules: default_carrier must be an enabled carrier; carriers_enabled must keep one carrier and the default carrier enabled; maintenance_mode is true or false; line_ownership is "enforced", "strict" or "off"; persisted_operations_only is true or false.',
  rest: { method: 'PUT', path: '/settings/{key}' },
  input: z.object({
    key: keyParameter,
    value: capped('value', MAX_SETTING_VALUE).describe(
      `The new value, JSON-encoded, at most ${MAX_SETTING_VALUE} characters`,
    ),
  }),
  output: settingRecord,
  superuserOnly: true,
  routing: 'none',
  // Dry run: the key and the value checked by the same rules against the settings as they are
  // now; the setting as it would be, nothing stored.
  predict: async ({ services, input, checks }) => {
    if (!isSettingKey(input.key)) throw new NotFoundError(`Setting ${quote(input.key)} not found`);
    try {
      const value = await services.settings.validate(input.key, input.value);
      checks.passed('value', 'The value keeps every rule of the settings');
      return settingView({ ...(await services.settings.get(input.key)), value, updatedAt: new Date() });
    } catch (error) {
      if (error instanceof SettingRuleViolation) throw new InputRefusal('value', error.message);
      throw error;
    }
  },
  handle: async ({ services, input }) => {
    if (!isSettingKey(input.key)) throw new NotFoundError(`Setting ${quote(input.key)} not found`);
    try {
      return { status: 200, body: settingView(await services.settings.update(input.key, input.value)) };
    } catch (error) {
      if (error instanceof SettingRuleViolation) throw new InputRefusal('value', error.message);
      throw error;
    }
  },
});

export const carrierStatuses = defineOperation({
  name: 'carrierStatuses',
  kind: 'query',
  description:
    'Each carrier: enabled by an admin, credentials configured (never their value), display name (superuser only)',
  rest: { method: 'GET', path: '/settings/carriers/status' },
  input: z.object({}),
  output: z.array(carrierStatus),
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services }) => {
    const values = await services.settings.values();
    const body = CARRIER_IDS.map((carrier) => ({
      carrier,
      enabled: values.carriers_enabled[carrier],
      credentialsConfigured: services.carriers.credentialsConfigured(carrier),
      displayName: values[displayNameKey(carrier)],
    }));
    return { status: 200, body };
  },
});
