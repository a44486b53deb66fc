// Assembles the GraphQL schema: every operation of the table as a Query or Mutation field, the
// GraphQL-only fields and the subscriptions.

import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { operations } from '../operations/index.js';
import { builder } from './builder.js';
import { registerOperationField } from './operation-fields.js';
import './dashboard.js';
import './bulk-activation-progress.js';

let schema: GraphQLSchema | undefined;

/** Built once per process (Pothos registers fields on the shared builder). */
export function buildSchema(): GraphQLSchema {
  if (!schema) {
    for (const operation of operations) registerOperationField(operation);
    schema = lexicographicSortSchema(builder.toSchema());
  }
  return schema;
}
