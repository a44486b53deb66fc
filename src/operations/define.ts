// How one operation of the spec is described, once, as data: the GraphQL field, the REST
// route, validation, rate limit, access, carrier routing, idempotency and the handler all
// come from one `defineOperation` call. Each definition keeps its own input and output types;
// the table holds them type-erased as `RegisteredOperation` (src/pipeline/operation.ts).

import type { z } from 'zod';
import type { NamedOperation, OperationSpec } from '../pipeline/operation.js';

export function defineOperation<I, O, const N extends string = string>(spec: OperationSpec<I, O> & { name: N }): NamedOperation<N> {
  // The pipeline validated `input` with `spec.input` before either runner is called, so the
  // erased input is an I: this is the one place that says so.
  const typed = <C extends { input: unknown }>(context: C) => context as C & { input: I };
  const base = {
    name: spec.name,
    kind: spec.kind,
    description: spec.description,
    rest: spec.rest,
    input: spec.input as z.ZodType,
    output: spec.output as z.ZodType,
    rateLimit: spec.rateLimit,
    superuserOnly: spec.superuserOnly ?? false,
  };
  if (spec.routing === 'none') {
    return {
      ...base,
      routing: 'none',
      usesCarriers: spec.usesCarriers ?? false,
      extended: false,
      lineField: 'mdn',
      ownedLines: [],
      ownedSims: [],
      runLocal: (context) => spec.handle(typed(context)),
      runCarrier: () => Promise.reject(new Error(`${spec.name} does not use a carrier`)),
      rejection: () => undefined,
    };
  }
  return {
    ...base,
    routing: spec.routing,
    usesCarriers: true,
    transactionPrefix: spec.transactionPrefix,
    extended: spec.extended ?? false,
    planField: spec.planField,
    lineField: spec.lineField ?? 'mdn',
    ownedLines: spec.ownedLines ?? [spec.lineField ?? 'mdn'],
    ownedSims: spec.ownedSims ?? ['sim'],
    runLocal: () => Promise.reject(new Error(`${spec.name} needs a carrier`)),
    runCarrier: (context) => spec.handle(typed(context)),
    rejection: (rejection, context) => spec.onRejection?.(rejection, typed(context)),
  };
}
