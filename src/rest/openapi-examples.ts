// Examples for the REST document, taken from the sandbox carriers' public test values
// (README "Sandbox carriers", docs/sandbox.md): every one of them works against `npm start`'s
// in-process sandboxes, so "Try it out" on /docs gives a real answer, not a 422.

import type { JsonSchema } from './openapi-schema.js';

/** Example values by input field name (camelCase); the same name means the same thing everywhere. */
const EXAMPLES: Record<string, unknown> = {
  mdn: '3215550001', // carrier 321 issues 321555xxxx from …0001
  sim: '89010000000000000001', // 19–20 digits starting 8901: a physical SIM, AVAILABLE
  oldSim: '89010000000000000001',
  newSim: '89010000000000000002',
  parentMdn: '3215550001',
  parentSim: '89010000000000000001',
  childMdn: '3215550002',
  childSim: '89010000000000000002',
  imei: '356938035643809', // 15 digits not starting 99: a known, compatible handset
  newImei: '356938035643817',
  zipCode: '10001', // any 5-digit ZIP but 00000 and 99999 is covered
  address1: '100 Main St', // without INVALID: a valid E911 address
  street1: '100 Main St',
  address2: 'Apt 4',
  city: 'New York',
  state: 'NY',
  planId: 'BASIC', // a plan id of this gateway (created with `npm run admin -- plan create`)
  newPlanId: 'PLUS',
  billingCode: 'BC-STANDARD',
  email: 'subscriber@example.com',
  language: 'ENGL',
  service: 'DATA',
  hotlineNumber: '3215550100',
  hotlineChargeable: false,
  reason: 'Customer request',
  acknowledgeFinal: true,
  subscriptionId: 'PUR00000001',
  purchaseId: 'PUR00000001',
  uom: 'BYTE',
  amount: 1073741824,
  expiryDate: '2026-12-31',
  accountId: 'ACCT00000001',
  startTime: '2026-11-01',
  endTime: '2026-11-30',
  message: 'Your line is ready',
  action: 'block',
  numbers: ['2125550123'],
  label: 'Work phone',
  key: 'maintenance_mode',
  value: 'false',
  id: 'ACT_0123456789AB', // a transaction id, as GET /transactions/{id} takes it
};

export const propertyExample = (camelName: string): unknown => EXAMPLES[camelName];

/** A transaction id as the gateway would generate it for this prefix. */
export const transactionIdExample = (prefix: string): string => `${prefix}0123456789AB`;

/**
 * A whole example value for a (snake_case) schema, built from its required properties'
 * examples, enum values and defaults; undefined when a required member has nothing to offer.
 */
export function composeExample(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 8) return undefined;
  const ref =
    typeof schema.$ref === 'string' ? components[schema.$ref.replace('#/components/schemas/', '')] : undefined;
  if (ref) return composeExample({ ...ref, ...schema, $ref: undefined }, components, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    const item = composeExample(schema.items as JsonSchema, components, depth + 1);
    return item === undefined ? undefined : [item];
  }
  if (schema.type === 'object' && schema.properties) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const result: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      // Required members only: an optional one (a SIM "for verification") could turn a working
      // example into a carrier refusal.
      if (!required.has(name)) continue;
      const value = composeExample(property, components, depth + 1);
      if (value === undefined) return undefined;
      result[name] = value;
    }
    return result;
  }
  return undefined;
}
