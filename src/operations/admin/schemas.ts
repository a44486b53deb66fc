// Shapes of the administration answers: Setting and Carrier status (spec: Resources).

import { z } from 'zod';
import { SETTING_KEYS } from '../../settings/definitions.js';

export const settingKey = z
  .enum(SETTING_KEYS, { error: `key must be one of ${SETTING_KEYS.join(', ')}` })
  .meta({ id: 'SettingKey', description: 'Name of a runtime setting' });

export const settingRecord = z
  .object({
    key: z.string().describe('Setting name'),
    value: z
      .string()
      .describe(
        'The value as JSON: REST answers JSON text (a string carries its own quotes), GraphQL the JSON value itself',
      ),
    description: z.string().describe('Human description'),
    updatedAt: z.string().describe('ISO 8601 UTC timestamp of the last change'),
  })
  .meta({ id: 'Setting', description: 'A runtime setting' });

export const carrierStatus = z
  .object({
    carrier: z.string().describe('Carrier identifier'),
    enabled: z.boolean().describe('Whether an admin enabled the carrier'),
    credentialsConfigured: z
      .boolean()
      .describe('Whether credentials exist for the carrier (their value is never exposed)'),
    displayName: z.string().describe('Human-readable name'),
  })
  .meta({ id: 'CarrierStatus', description: 'Health and configuration of one carrier' });

export const settingView = (view: { key: string; value: string; description: string; updatedAt: Date }) => ({
  key: view.key,
  value: view.value,
  description: view.description,
  updatedAt: view.updatedAt.toISOString(),
});
