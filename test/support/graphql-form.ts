// A REST body as the GraphQL schema spells it (docs/clients.md, "One vocabulary"), written out
// here independently of src/graphql/graphql-conventions.ts so twin tests check it: camelCase;
// result `status` as SUCCESS/FAILURE with the subscriber's own status as `subscriberStatus`;
// carriers as CarrierId enum names; carrier timestamps (UTC, no zone) as ISO 8601 instants.

import { convertKeys, toCamel } from '../../src/lib/case.js';

const CARRIER_NAMES: Record<string, string> = { '321': 'CARRIER_321', carrier_b: 'CARRIER_B' };
const CARRIER_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `top`: the operation's own result, whose `status` is a result status even without `message`. */
function convert(value: unknown, top = false): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item));
  if (typeof value === 'string') {
    if (CARRIER_TIME.test(value)) return new Date(`${value.replace(' ', 'T')}Z`).toISOString();
    return ISO_TIME.test(value) ? new Date(value).toISOString() : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const object = Object.fromEntries(Object.entries(value).map(([key, member]) => [key, convert(member)]));
  if (typeof object.carrier === 'string') object.carrier = CARRIER_NAMES[object.carrier] ?? object.carrier;
  if (typeof object.status === 'string') {
    const result = object.status === 'success' || object.status === 'failure';
    if (top || 'message' in object || result) {
      if (!result) object.subscriberStatus = object.status;
      object.status = object.status === 'failure' ? 'FAILURE' : 'SUCCESS';
    } else {
      object.subscriberStatus = object.status;
      delete object.status;
    }
  }
  return object;
}

/** The GraphQL data a REST body corresponds to. */
export function graphqlForm(body: unknown): Record<string, unknown> {
  return convert(convertKeys(body, toCamel), true) as Record<string, unknown>;
}
