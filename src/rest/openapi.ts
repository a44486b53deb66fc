// The OpenAPI 3.1 document of the REST compatibility layer (GET /openapi.json), derived from
// the operation table: every route's method and path, its path and query parameters, its JSON
// body and every response the pipeline can give, in the snake_case REST speaks.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../lib/package-root.js';
import { activationOperations } from '../operations/activation/index.js';
import type { RegisteredOperation } from '../pipeline/operation.js';
import { extendedOperations } from '../operations/extended/index.js';
import { featureOperations } from '../operations/features/index.js';
import { accountOperations, adminOperations, managementOperations } from '../operations/index.js';
import { lifecycleOperations } from '../operations/lifecycle/index.js';
import { planOperations } from '../operations/plans/index.js';
import { queryOperations } from '../operations/queries/index.js';
import { toSnake } from '../lib/case.js';
import { composeExample, transactionIdExample } from './openapi-examples.js';
import { errorSchemas, responsesOf } from './openapi-responses.js';
import { isRequired, propertyOf, SchemaComponents, type JsonSchema } from './openapi-schema.js';

/** The table's groups, as tags (the order of the spec). */
const TAGS: [name: string, description: string, members: readonly RegisteredOperation[]][] = [
  ['Features', 'Wi-Fi Calling and E911, voicemail, device location', featureOperations],
  ['Queries', 'Line, SIM, device, coverage and usage look-ups', queryOperations],
  ['Lifecycle', 'Suspend, restore, disconnect, reconnect, swaps, balances, child lines', lifecycleOperations],
  ['Plans', 'Plan purchase, change and cancellation, billing codes', planOperations],
  ['Activation', 'SIM activation, one or in bulk', activationOperations],
  ['Settings', 'Runtime settings (superuser only)', adminOperations],
  ['Extended', 'Carrier 321 only: 501 on carrier_b lines', extendedOperations],
  ['Account', 'The caller', accountOperations],
  ['Management', 'Users, plans and tokens (superuser only)', managementOperations],
];

function tagOf(operation: RegisteredOperation): string | undefined {
  return TAGS.find(([, , members]) => members.includes(operation))?.[0];
}

function notes(operation: RegisteredOperation): string {
  const lines = [operation.description];
  if (operation.superuserOnly) lines.push('Superuser only.');
  if (operation.extended) lines.push('Carrier 321 only (501 for carrier_b lines).');
  if (operation.rateLimit)
    lines.push(`Rate limit: ${operation.rateLimit.max} per ${operation.rateLimit.window} per user.`);
  if (operation.transactionPrefix && operation.kind === 'mutation')
    lines.push(`Generated transaction ids start with \`${operation.transactionPrefix}\`.`);
  lines.push(`GraphQL: the \`${operation.name}\` ${operation.kind}.`);
  return lines.join('\n\n');
}

function describeOperation(operation: RegisteredOperation, components: SchemaComponents): Record<string, unknown> {
  const binding = operation.rest!;
  const input = components.convert(operation.input, 'input');
  const output = components.convert(operation.output, 'output');
  const pathNames = binding.path
    .split('/')
    .filter((segment) => segment.startsWith('{') && segment.endsWith('}'))
    .map((segment) => segment.slice(1, -1));
  const queryNames = binding.query ?? [];
  const parameters = [
    ...pathNames.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: propertyOf(input, toCamelName(name)) ?? { type: 'string' },
    })),
    ...queryNames.map((camel) => ({
      name: toSnake(camel),
      in: 'query',
      required: isRequired(input, camel),
      schema: propertyOf(input, camel) ?? { type: 'string' },
    })),
    // The parameter's own `example` is what Swagger UI pre-fills "Try it out" with.
  ].map(({ schema, ...parameter }) => ({
    ...parameter,
    description: schema.description,
    schema,
    example: Array.isArray(schema.examples) ? schema.examples[0] : undefined,
  }));

  const description: Record<string, unknown> = {
    operationId: operation.name,
    summary: summaryOf(operation.description),
    description: notes(operation),
    tags: [tagOf(operation) ?? 'Other'],
    parameters,
    responses: responsesOf(operation, output),
  };
  if (binding.method !== 'GET') {
    // The body carries every field that is neither a query parameter nor a path parameter,
    // except path parameters the body must repeat.
    const outside = new Set([
      ...queryNames.map(toSnake),
      ...pathNames.filter((name) => !(binding.bodyRepeats ?? []).map(toSnake).includes(name)),
    ]);
    const body = withoutProperties(input, outside);
    const example = composeExample(body, components.schemas) as Record<string, unknown> | undefined;
    if (example && operation.transactionPrefix && operation.kind === 'mutation')
      example.transaction_id = transactionIdExample(operation.transactionPrefix);
    description.requestBody = {
      required: true,
      content: { 'application/json': example ? { schema: body, example } : { schema: body } },
    };
  }
  return description;
}

/** The first sentence, or its first clause when that is long. */
function summaryOf(description: string): string {
  const sentence = description.split(/(?<=\.)\s/)[0]!.replace(/\.$/, '');
  return sentence.length <= 100 ? sentence : sentence.split(/[:;]\s/)[0]!;
}

const toCamelName = (snake: string) => snake.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

function withoutProperties(schema: JsonSchema, names: Set<string>): JsonSchema {
  if (names.size === 0) return schema;
  const properties = Object.fromEntries(
    Object.entries((schema.properties as Record<string, JsonSchema>) ?? {}).filter(([name]) => !names.has(name)),
  );
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => !names.has(name));
  return { ...schema, properties, ...(required.length > 0 ? { required } : { required: undefined }) };
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildOpenApiDocument(operations: readonly RegisteredOperation[]): Record<string, unknown> {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    if (!operation.rest) continue;
    (paths[operation.rest.path] ??= {})[operation.rest.method.toLowerCase()] = describeOperation(operation, components);
  }
  const used = new Set(
    Object.values(paths).flatMap((methods) =>
      Object.values(methods).map((operation) => (operation as { tags: string[] }).tags[0]),
    ),
  );
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      info: {
        title: 'line-gateway REST API',
        version: packageVersion(),
        description:
          "The REST compatibility layer of line-gateway: the original service's paths, statuses and snake_case bodies, on the same operations as the GraphQL API at `/graphql`. " +
          "Every operation needs a bearer token (`npm run admin -- token issue <user>`). The examples use the sandbox carriers' test values (docs/sandbox.md).",
      },
      tags: TAGS.filter(([name]) => used.has(name)).map(([name, description]) => ({ name, description })),
      security: [{ bearerAuth: [] }],
      paths,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A token issued by `npm run admin -- token issue <user>` or the issueToken mutation',
          },
        },
        schemas: { ...components.schemas, ...errorSchemas },
      },
    }),
  ) as Record<string, unknown>;
}
