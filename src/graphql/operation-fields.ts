// Registers every operation of the table as a GraphQL field: queries take their inputs as
// arguments, mutations one `input` object; both run the shared pipeline and answer with the
// body a REST caller would get (in camelCase).

import type { z } from 'zod';
import type { RegisteredOperation } from '../pipeline/operation.js';
import { executeOperation, givenInput } from '../pipeline/execute.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { builder } from './builder.js';
import { carrierCalls } from './query-cost.js';
import { argumentTypes, inputRef, outputType } from './zod-to-graphql.js';
import { toPascal } from '../lib/case.js';

function hasFields(schema: z.ZodType): boolean {
  return Object.keys((schema as unknown as { _zod: { def: { shape?: object } } })._zod.def.shape ?? {}).length > 0;
}

export async function runForGraphQL(
  operation: RegisteredOperation,
  input: unknown,
  context: RequestContext,
): Promise<unknown> {
  return (await executeOperation(operation, givenInput(input), context)).body;
}

/** An explicit GraphQL null means "not given", as an absent member does on REST. */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  const keep = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(keep)
      : typeof value === 'object' && value !== null
        ? withoutNulls(value as Record<string, unknown>)
        : value;
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, keep(value)]),
  );
}

export function registerOperationField(operation: RegisteredOperation): void {
  const type = outputType(operation.output, `${toPascal(operation.name)}Result`);
  // Nullable, so that one refused field does not void its siblings (partial success).
  const common = { type, nullable: true, description: operation.description };
  // Its cost (query-cost.ts): one carrier call when the operation routes to a carrier (bulk
  // activation, which calls carriers per item, is bounded by its own rate limit; it counts one).
  const extensions = carrierCalls(operation.routing !== 'none' || operation.usesCarriers ? 1 : 0);
  if (operation.kind === 'query') {
    builder.queryField(operation.name, (t) =>
      t.field({
        ...(common as { type: never; nullable: true; description: string }),
        extensions,
        args: Object.fromEntries(
          argumentTypes(operation.input, operation.name).map((arg) => [
            arg.key,
            t.arg({ type: arg.type as never, required: arg.required, description: arg.description }),
          ]),
        ),
        resolve: (_root, args, context) => runForGraphQL(operation, withoutNulls(args), context) as never,
      }),
    );
    return;
  }
  builder.mutationField(operation.name, (t) =>
    t.field({
      ...(common as { type: never; nullable: true; description: string }),
      extensions,
      args: hasFields(operation.input)
        ? {
            input: t.arg({
              type: inputRef(
                operation.input,
                `${toPascal(operation.name)}Input`,
                `Input of ${operation.name}: ${operation.description}`,
              ) as never,
              required: true,
              description: `The request of ${operation.name}`,
            }),
          }
        : {},
      resolve: (_root, args, context) =>
        runForGraphQL(
          operation,
          withoutNulls((args as { input?: Record<string, unknown> }).input ?? {}),
          context,
        ) as never,
    }),
  );
}
