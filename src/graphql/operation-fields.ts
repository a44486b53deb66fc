// Registers every operation of the table as a GraphQL field: queries take their inputs as
// arguments, mutations one `input` object; both run the shared pipeline and answer with the
// body a REST caller would get (in camelCase).

import { z } from 'zod';
import type { RegisteredOperation } from '../pipeline/operation.js';
import { dryRunOperation } from '../pipeline/dry-run.js';
import type { DryRunReport } from '../pipeline/dry-run-report.js';
import { executeOperation, givenInput } from '../pipeline/execute.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { FIELD_ARGUMENTS, INPUT_ARGUMENT } from '../pipeline/validate.js';
import { builder } from './builder.js';
import { addDryRunField } from './dry-run-report.js';
import { carrierCalls } from './query-cost.js';
import { argumentTypes, inputRef, outputType } from './zod-to-graphql.js';
import { toPascal } from '../lib/case.js';

const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> =>
  (schema as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } })._zod.def.shape ?? {};

/** Every mutation's input offers `dryRun` (the table's input schemas do not know it: it is the surface's). */
const dryRunFlag = z
  .boolean()
  .optional()
  .describe('true: check what the call would do, changing nothing; the answer carries `dryRun` (a DryRunReport)');

/** A dry run's payload: the body the call would answer, with the report (on each item of a list). */
function withReport(preview: unknown, report: DryRunReport): unknown {
  if (Array.isArray(preview)) return preview.map((item: object) => ({ ...item, dryRun: report }));
  return { ...(preview as object), dryRun: report };
}

/** Runs the operation on its field's arguments (a mutation's: the members of its `input`). */
export async function runForGraphQL(
  operation: RegisteredOperation,
  input: unknown,
  context: RequestContext,
): Promise<unknown> {
  const place = operation.kind === 'mutation' ? INPUT_ARGUMENT : FIELD_ARGUMENTS;
  return (await executeOperation(operation, givenInput(input, place), context)).body;
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
  addDryRunField(type);
  const fields = shapeOf(operation.input);
  builder.mutationField(operation.name, (t) =>
    t.field({
      ...(common as { type: never; nullable: true; description: string }),
      extensions,
      args: {
        input: t.arg({
          type: inputRef(
            z.object({ ...fields, dryRun: dryRunFlag }),
            `${toPascal(operation.name)}Input`,
            `Input of ${operation.name}: ${operation.description}`,
          ) as never,
          required: Object.keys(fields).length > 0,
          description: `The request of ${operation.name}`,
        }),
      },
      resolve: async (_root, args, context) => {
        const { dryRun, ...input } = withoutNulls((args as { input?: Record<string, unknown> }).input ?? {});
        if (dryRun !== true) return runForGraphQL(operation, input, context) as never;
        const answer = await dryRunOperation(operation, givenInput(input, INPUT_ARGUMENT), context);
        return withReport(answer.preview, answer.report) as never;
      },
    }),
  );
}
