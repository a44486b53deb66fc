// What an operation is, as the pipeline runs it: the shapes of a table row, of the contexts its
// handler is given and of its answer. The pipeline owns these types so that the operations
// (src/operations/) depend on the pipeline and never the reverse; `defineOperation`
// (src/operations/define.ts) builds a row from a typed spec.

import type { z } from 'zod';
import type { CarrierRejection } from '../carriers/errors.js';
import type {
  CarrierId,
  CarrierOperations,
  CarrierQueryMethods,
  ExtendedCarrierOperations,
} from '../carriers/types.js';
import type { PlanRecord, UserRecord } from '../directory/types.js';
import type { LineEventSpec, RowEvent } from './line-events.js';
import type { DryRunChecks, DryRunReport } from './dry-run-report.js';
import type { RateLimit } from './rate-limiter.js';
import type { RequestContext } from './request-context.js';
import type { Services } from './services.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

export interface RestBinding {
  method: HttpMethod;
  /** The spec's exact path, `{name}` for path parameters (taken into the input by name). */
  path: string;
  /** Input fields (camelCase) read from the query string. */
  query?: readonly string[];
  /** Path parameters the body must repeat, with the same value (PATCH /sim/label/{mdn}). */
  bodyRepeats?: readonly string[];
  /** Optional body fields (camelCase) whose empty string the spec reads as absent (`service`: empty = all). */
  emptyIsAbsent?: readonly string[];
}

/** The HTTP status and body (camelCase; REST writes it in snake_case) of an answer. */
export interface Outcome<O> {
  status: number;
  body: O;
}

/** How the carrier of a request is chosen (after which disabled carriers are refused). */
export type CarrierRouting =
  /** The line's known carrier (input `mdn`, or `lineField`), else user preference, else default. */
  | 'line'
  /** The carrier of the line holding input `sim`, else user preference, else default. */
  | 'sim'
  /** The plan's carrier, else the line's known carrier (when the input names a line), else user preference, else default. */
  | 'plan'
  /** User preference, else default. */
  | 'default';

/** What every handler is given: the validated input, the caller and the process's services. */
interface HandlerContext<I> {
  input: I;
  user: UserRecord;
  services: Services;
  request: RequestContext;
}

export interface LocalContext<I> extends HandlerContext<I> {
  /**
   * Runs an operation of the table through the whole pipeline for this request, as a call of
   * its own (plan authorization, carrier, transaction id, record): a bulk request's items.
   */
  runOperation(operation: RegisteredOperation, input: unknown): Promise<Outcome<unknown>>;
}

export interface CarrierContext<I> extends HandlerContext<I> {
  carrierId: CarrierId;
  carrier: CarrierOperations;
  /** Caller-supplied or generated; reserved in the transaction log for mutations. */
  transactionId: string;
}

/** The context of a plan-bearing operation (`planField`): the plan it names, authorized for the caller. */
export interface PlanContext<I> extends CarrierContext<I> {
  plan: PlanRecord;
}

/** The context of an extended operation: the carrier has them (the pipeline answers 501 otherwise). */
export interface ExtendedContext<I> extends CarrierContext<I> {
  extended: ExtendedCarrierOperations;
}

/**
 * What a dry run hands a prediction: the handler's context with the carrier's read-only
 * methods only (a prediction cannot write, by type) and the recorder of its checks.
 */
export interface PredictionContext<I> extends HandlerContext<I> {
  carrierId: CarrierId;
  carrier: CarrierQueryMethods;
  checks: DryRunChecks;
  plan: PlanRecord | null;
}

/** A plan-bearing operation's prediction gets the plan, authorized, as its handler does. */
export interface PlanPredictionContext<I> extends PredictionContext<I> {
  plan: PlanRecord;
}

/** What a dry run hands a local (gateway-answered) operation's prediction. */
export interface LocalPredictionContext<I> extends HandlerContext<I> {
  checks: DryRunChecks;
  /**
   * Dry-runs an operation of the table for this request, as a call of its own (plan
   * authorization, carrier, its prediction) without spending the dry-run budget again: a
   * bulk request's items.
   */
  predictOperation(operation: RegisteredOperation, input: unknown): Promise<{ report: DryRunReport; preview: unknown }>;
}

/**
 * What the pipeline (or a re-send) hands a carrier-routed row: everything it resolved. The row
 * gives its handler the context its spec declares, checking that what it declares is there.
 */
export interface CarrierCall extends CarrierContext<unknown> {
  plan: PlanRecord | null;
  extended: ExtendedCarrierOperations | undefined;
}

interface OperationBase<I, O> {
  /** GraphQL field name (camelCase). */
  name: string;
  kind: 'query' | 'mutation';
  /** Shown in GraphiQL and docs; taken from the spec's meaning. */
  description: string;
  rest?: RestBinding;
  input: z.ZodType<I>;
  /** Output schema, named with `.meta({ id })`; GraphQL types are derived from it. */
  output: z.ZodType<O>;
  rateLimit?: RateLimit;
  superuserOnly?: boolean;
}

export interface LocalOperationSpec<I, O> extends OperationBase<I, O> {
  routing: 'none';
  /** Carrier work spread over several carriers (bulk activation): maintenance mode applies. */
  usesCarriers?: boolean;
  /**
   * Its dry run dry-runs many items, each with its carrier reads (a bulk activation's SIMs): it
   * then also spends a dry-run budget as large as its rate limit (see src/pipeline/dry-run.ts).
   */
  dryRunsItems?: boolean;
  handle(context: LocalContext<I>): Promise<Outcome<NoInfer<O>>>;
  /**
   * Dry run: checks what the handler would check, changing nothing; answers the body the call
   * would answer, or throws the refusal it would give.
   */
  predict?(context: LocalPredictionContext<I>): Promise<NoInfer<O>>;
}

interface CarrierSpecBase<I, O> extends OperationBase<I, O> {
  routing: CarrierRouting;
  /** Generated transaction id prefix (spec); mutations are recorded and de-duplicated. */
  transactionPrefix?: string;
  /** Input field naming the line for 'line' routing (default `mdn`). */
  lineField?: keyof I & string;
  /** Input fields naming lines that must be the caller's (default: `lineField`). */
  ownedLines?: readonly (keyof I & string)[];
  /** Input fields naming SIMs whose lines must be the caller's (default: `sim`). */
  ownedSims?: readonly (keyof I & string)[];
  /** The line event a successful write records (src/pipeline/line-events.ts); none when absent. */
  event?: LineEventSpec<I, NoInfer<O>>;
  /**
   * A read whose answer depends only on the carrier and the input, never on the caller, and
   * that records nothing: identical calls in flight at once, from any requests, share one
   * carrier call (src/pipeline/read-flights.ts). A query without a transaction prefix only.
   */
  coalesce?: boolean;
  /**
   * A query keyed by a SIM (`ownedSims`): whether the carrier's answer shows that SIM as stock,
   * on no line (its status AVAILABLE). Under the `strict` ownership rule a SIM the gateway has
   * not recorded passes the check before the carrier as stock; an answer that does not show it
   * as stock is then refused like another user's line, and nothing of it is answered
   * (src/pipeline/line-ownership.ts). A query only.
   */
  showsStockSim?(answer: NoInfer<O>): boolean;
  /** The answer to a carrier refusal (default: the failure envelope, HTTP 400). */
  onRejection?(rejection: CarrierRejection, context: CarrierContext<I>): Outcome<NoInfer<O>>;
  /**
   * Dry run: the carrier's read-only checks that predict the write's outcome, recorded on
   * `checks`; a predicted refusal is thrown (`checks.refuse`). Without it, the carrier's side is
   * reported as not predictable.
   */
  predict?(context: PredictionContext<I>): Promise<void>;
}

/** An operation of the carrier contract, on any carrier. */
export interface CarrierOperationSpec<I, O> extends CarrierSpecBase<I, O> {
  planField?: undefined;
  extended?: false;
  handle(context: CarrierContext<I>): Promise<Outcome<NoInfer<O>>>;
}

/** A plan-bearing operation: the pipeline authorizes the plan named by `planField` and routes by it. */
export interface PlanOperationSpec<I, O> extends Omit<CarrierSpecBase<I, O>, 'predict'> {
  planField: keyof I & string;
  extended?: false;
  handle(context: PlanContext<I>): Promise<Outcome<NoInfer<O>>>;
  predict?(context: PlanPredictionContext<I>): Promise<void>;
}

/** A carrier-321-only operation (`extended: true`): 501 on a carrier without extended operations. */
export interface ExtendedOperationSpec<I, O> extends CarrierSpecBase<I, O> {
  planField?: undefined;
  extended: true;
  handle(context: ExtendedContext<I>): Promise<Outcome<NoInfer<O>>>;
}

export type OperationSpec<I, O> =
  LocalOperationSpec<I, O> | CarrierOperationSpec<I, O> | PlanOperationSpec<I, O> | ExtendedOperationSpec<I, O>;

/** What every row says about itself, whatever runs it. */
interface RowBase {
  name: string;
  kind: 'query' | 'mutation';
  description: string;
  rest?: RestBinding;
  input: z.ZodType;
  output: z.ZodType;
  rateLimit?: RateLimit;
  superuserOnly: boolean;
  /** Subject to maintenance mode (every carrier-routed operation, and local ones that call carriers). */
  usesCarriers: boolean;
  transactionPrefix?: string;
  extended: boolean;
  planField?: string;
  lineField: string;
  /** Input fields naming lines, and SIMs, that only their owner (or a superuser) may act on. */
  ownedLines: readonly string[];
  ownedSims: readonly string[];
  /** The line event a successful write records. */
  event?: RowEvent;
  /** Identical calls in flight at once share one carrier call (a caller-independent read). */
  coalesce: boolean;
  /** A SIM-keyed query: whether its (successful) answer shows the SIM as stock, on no line. */
  showsStockSim?(answer: unknown): boolean;
}

/** A row answered by the gateway itself (management, settings, account, bulk activation). */
export interface LocalOperation extends RowBase {
  routing: 'none';
  dryRunsItems: boolean;
  run(context: LocalContext<unknown>): Promise<Outcome<unknown>>;
  predict?(context: LocalPredictionContext<unknown>): Promise<unknown>;
}

/** A row answered by the carrier the pipeline resolved. */
export interface CarrierRoutedOperation extends RowBase {
  routing: CarrierRouting;
  run(call: CarrierCall): Promise<Outcome<unknown>>;
  rejection(rejection: CarrierRejection, call: CarrierCall): Outcome<unknown> | undefined;
  predict?(context: PredictionContext<unknown>): Promise<void>;
}

/** A table row with its types erased, told apart by `routing`. */
export type RegisteredOperation = LocalOperation | CarrierRoutedOperation;

/** A row whose field name the type knows, so that the table can be looked up by name. */
export type NamedOperation<N extends string> = RegisteredOperation & { readonly name: N };
