// The one Pothos schema builder. plugin-zod validates the arguments of the GraphQL-only
// entry points (line, lines, transaction); operations of the table validate inside the shared
// pipeline instead, so that REST and GraphQL refuse bad input at the same step.

import SchemaBuilder from '@pothos/core';
import ZodPlugin from '@pothos/plugin-zod';
import type { RequestContext } from '../pipeline/request-context.js';
import { validationFailure } from '../pipeline/validate.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  Scalars: { DateTime: { Input: Date; Output: Date | string } };
}>({
  plugins: [ZodPlugin],
  zod: {
    // plugin-zod's failures become the same BAD_USER_INPUT error (422) the pipeline raises.
    validationError: (error) => validationFailure(error),
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp in UTC',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: (value) => new Date(String(value)),
});

builder.queryType({ description: 'Reads: line information, coverage, devices, settings, your account' });
builder.mutationType({ description: 'Changes: line features, lifecycle, plans, activation, settings, management' });
