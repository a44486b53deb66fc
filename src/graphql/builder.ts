// The one Pothos schema builder. plugin-zod validates the arguments of the GraphQL-only
// entry points (line, lines, transaction); operations of the table validate inside the shared
// pipeline instead, so that REST and GraphQL refuse bad input at the same step.

import SchemaBuilder from '@pothos/core';
import ZodPlugin from '@pothos/plugin-zod';
import type { RequestContext } from '../pipeline/request-context.js';
import { FIELD_ARGUMENTS, validationFailure } from '../pipeline/validate.js';
import { isoInstant } from './graphql-conventions.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  Scalars: { DateTime: { Input: Date; Output: Date | string }; JSON: { Input: unknown; Output: unknown } };
}>({
  plugins: [ZodPlugin],
  zod: {
    // plugin-zod's failures become the same BAD_USER_INPUT error (422) the pipeline raises,
    // located at the field's own arguments (`lines(mdns:)` → `["mdns",1]`).
    validationError: (error) => validationFailure(error, { graphql: FIELD_ARGUMENTS }),
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 instant in UTC, e.g. 2026-01-02T03:04:05.000Z (carrier times without a zone are UTC)',
  serialize: (value) => isoInstant(value),
  parseValue: (value) => new Date(String(value)),
});

builder.scalarType('JSON', {
  description: 'Any JSON value (object, array, string, number, boolean or null)',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({ description: 'Reads: line information, coverage, devices, settings, your account' });
builder.mutationType({ description: 'Changes: line features, lifecycle, plans, activation, settings, management' });
// Streams over Server-Sent Events (Yoga's transport); use-subscriptions.ts guards them.
builder.subscriptionType({
  description: 'Live streams over Server-Sent Events: line events and the progress of your bulk activation jobs',
});
