// How one operation of the spec is described, once, as data: the GraphQL field, the REST
// route, validation, rate limit, access, carrier routing, idempotency and the handler all
// come from one `defineOperation` call. Each definition keeps its own input and output types;
// the table holds them type-erased as `RegisteredOperation` (src/pipeline/operation.ts).

import type { z } from 'zod';
import type {
  CarrierCall,
  PredictionContext,
  CarrierOperationSpec,
  ExtendedOperationSpec,
  LocalOperationSpec,
  NamedOperation,
  OperationSpec,
  Outcome,
  PlanOperationSpec,
} from '../pipeline/operation.js';

// One signature per kind of spec, so that each handler's context is typed by what its spec
// declares: `planField` gives a plan, `extended: true` the extended operations.
export function defineOperation<I, O, const N extends string = string>(
  spec: PlanOperationSpec<I, O> & { name: N },
): NamedOperation<N>;
export function defineOperation<I, O, const N extends string = string>(
  spec: ExtendedOperationSpec<I, O> & { name: N },
): NamedOperation<N>;
export function defineOperation<I, O, const N extends string = string>(
  spec: LocalOperationSpec<I, O> & { name: N },
): NamedOperation<N>;
export function defineOperation<I, O, const N extends string = string>(
  spec: CarrierOperationSpec<I, O> & { name: N },
): NamedOperation<N>;
export function defineOperation<I, O, const N extends string = string>(
  spec: OperationSpec<I, O> & { name: N },
): NamedOperation<N> {
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
    const predictLocal = spec.predict?.bind(spec);
    return {
      ...base,
      routing: 'none',
      usesCarriers: spec.usesCarriers ?? false,
      dryRunsItems: spec.dryRunsItems ?? false,
      extended: false,
      lineField: 'mdn',
      ownedLines: [],
      ownedSims: [],
      coalesce: false,
      run: (context) => spec.handle(typed(context)),
      predict: predictLocal && ((context) => predictLocal(typed(context))),
    };
  }
  // A shared call must not be a write, nor carry a transaction id that would be one caller's.
  if (spec.coalesce && (spec.kind !== 'query' || spec.transactionPrefix !== undefined)) {
    throw new Error(`${spec.name}: only a query without a transaction prefix may coalesce its carrier calls`);
  }
  // The check follows the carrier call: a write would have happened by then.
  if (spec.showsStockSim && spec.kind !== 'query') {
    throw new Error(`${spec.name}: only a query may check its answer's SIM`);
  }
  const showsStockSim = spec.showsStockSim?.bind(spec);
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
    coalesce: spec.coalesce ?? false,
    showsStockSim: showsStockSim && ((answer: unknown) => showsStockSim(answer as O)),
    event: spec.event && {
      type: spec.event.type,
      data: (input, answer) => spec.event?.data?.(input as I, answer as O) ?? {},
    },
    run: (call) => handle(spec, typed(call)),
    rejection: (rejection, call) => spec.onRejection?.(rejection, typed(call)),
    predict: spec.predict && ((context) => predict(spec, typed(context))),
  };
}

type CarrierRoutedSpec<I, O> = Exclude<OperationSpec<I, O>, LocalOperationSpec<I, O>>;

const isPlanBearing = <I, O>(spec: CarrierRoutedSpec<I, O>): spec is PlanOperationSpec<I, O> =>
  spec.planField !== undefined;
const isExtended = <I, O>(spec: CarrierRoutedSpec<I, O>): spec is ExtendedOperationSpec<I, O> => spec.extended === true;

/**
 * Gives the handler the context its spec declares. The pipeline loaded the plan of a
 * plan-bearing operation and refused an extended one on a carrier without extended operations
 * (501) before calling; a re-send checks the same. So the throws below are broken invariants.
 */
function handle<I, O>(spec: CarrierRoutedSpec<I, O>, call: CarrierCall & { input: I }): Promise<Outcome<O>> {
  if (isPlanBearing(spec)) {
    const { plan } = call;
    if (!plan) throw new Error(`${spec.name} is plan-bearing but was called without its plan`);
    return spec.handle({ ...call, plan });
  }
  if (isExtended(spec)) {
    const { extended } = call;
    if (!extended) throw new Error(`${spec.name} is extended but its carrier has no extended operations`);
    return spec.handle({ ...call, extended });
  }
  return spec.handle(call);
}

/** Gives the prediction the context its spec declares (the plan of a plan-bearing operation). */
function predict<I, O>(spec: CarrierRoutedSpec<I, O>, context: PredictionContext<I>): Promise<void> {
  if (isPlanBearing(spec)) {
    const { plan } = context;
    if (!plan) throw new Error(`${spec.name} is plan-bearing but was dry-run without its plan`);
    return spec.predict?.({ ...context, plan }) ?? Promise.resolve();
  }
  return spec.predict?.(context) ?? Promise.resolve();
}
