// The one execution path of every operation, REST or GraphQL: auth → maintenance → rate
// limit → validation → plan authorization → line ownership → carrier resolution → idempotency → carrier call
// → envelope → transaction/audit row. Carrier resolution comes before the transaction id
// is reserved so that a request refused for a disabled or unsupported carrier changes nothing.

import { CarrierFault } from '../carriers/errors.js';
import { CarrierNotConfiguredError } from '../carriers/unconfigured.js';
import type { CarrierId, CarrierOperations, ExtendedCarrierOperations } from '../carriers/types.js';
import type { PlanRecord, UserRecord } from '../directory/types.js';
import type { CarrierCall, Outcome, RegisteredOperation } from './operation.js';
import {
  CarrierDisabledError,
  CarrierUnavailableError,
  ForbiddenError,
  isGatewayError,
  MaintenanceError,
  NotSupportedError,
  PlanNotAuthorizedError,
  UnauthenticatedError,
} from '../errors/gateway-errors.js';
import { convertKeys, toSnake } from '../lib/case.js';
import { faultFields, runCarrierHandler, sharedRead } from './carrier-handler.js';
import { lineEventOf } from './line-events.js';
import { resolveCarrier } from './carrier-routing.js';
import { checkAnsweredSims, checkLineOwnership } from './line-ownership.js';
import { spendCarrierCall, type RequestContext } from './request-context.js';
import { generateTransactionId, type TransactionStatus } from './transaction-log.js';
import { locatedRefusal, validateInput, type GraphQLArguments, type InputPlace } from './validate.js';
import { nonEmptyText } from '../lib/text.js';
import { BodyTooLargeError } from '../errors/body-too-large.js';

type Fields = Record<string, unknown>;

const text = nonEmptyText;

/**
 * The request's input, read only when the pipeline reaches validation (so 401/403/429 come
 * first), and where it came from (REST `sources`, GraphQL arguments), for a 422's `loc`.
 */
export interface PendingInput extends InputPlace {
  read(): Promise<unknown>;
}

/** An input already at hand; `graphql` when it came from a GraphQL field's arguments. */
export const givenInput = (input: unknown, graphql?: GraphQLArguments): PendingInput => ({
  read: async () => input,
  graphql,
});

export interface ExecuteOptions {
  /**
   * The call is a field under GraphQL's `line`/`lines`: the request's cost budget paid for it
   * before execution, so it spends none of the operation's per-minute calls.
   */
  budgeted?: boolean;
  /**
   * Runs the carrier call once a slot of its carrier is free (a `lines` request bounds its
   * calls in flight per carrier); everything before the carrier call runs without a slot.
   */
  carrierSlot?: CarrierSlot;
}

/** Runs `call` when the request may make one more call to `carrierId`. */
export type CarrierSlot = <T>(carrierId: CarrierId, call: () => Promise<T>) => Promise<T>;

export async function executeOperation(
  operation: RegisteredOperation,
  pending: PendingInput,
  request: RequestContext,
  options: ExecuteOptions = {},
): Promise<Outcome<unknown>> {
  const stop = request.services.metrics.operations.startTimer({ operation: operation.name });
  // Shutdown waits for writes in flight, so that none is cut between the carrier and its record.
  const done = operation.kind === 'mutation' ? request.services.recovery.begin() : undefined;
  try {
    const outcome = await runPipeline(operation, pending, request, options);
    stop({ status: outcome.status });
    return outcome;
  } catch (thrown) {
    const error = locatedRefusal(thrown, pending);
    // A body cut at the size limit is the client's 413, which the edge answers (not a fault).
    stop({ status: isGatewayError(error) ? error.status : error instanceof BodyTooLargeError ? 413 : 500 });
    throw error;
  } finally {
    done?.();
  }
}

/** What the steps before the carrier resolved for a carrier-routed call. */
export interface Admitted {
  input: Fields;
  user: UserRecord;
  plan: PlanRecord | null;
  carrierId: CarrierId;
  carrier: CarrierOperations;
  extended: ExtendedCarrierOperations | undefined;
}

/** How the rate-limit step counts: a write spends its budget; a dry run checks it (dry-run.ts). */
export type RateLimitStep = (user: UserRecord) => Promise<void>;

/**
 * The steps every call takes before anything changes, in order: auth, superuser, maintenance,
 * rate limit, validation, then (carrier-routed rows) plan authorization, line ownership and
 * carrier resolution. Each refusal is thrown. A dry run takes the same steps with its own rate
 * limit step. Answers the validated input alone for a local row.
 */
export async function admit(
  operation: RegisteredOperation,
  pending: PendingInput,
  request: RequestContext,
  countCall: RateLimitStep,
): Promise<{ local: true; input: Fields; user: UserRecord } | ({ local: false } & Admitted)> {
  const { services } = request;
  const user = request.user;
  if (!user) throw new UnauthenticatedError(request.authFailure);
  if (operation.superuserOnly && !user.superuser) throw new ForbiddenError();
  const settings = services.settings.cachedValues() ?? (await services.settings.values());
  if (operation.usesCarriers && settings.maintenance_mode) throw new MaintenanceError();
  await countCall(user);
  const input = validateInput(operation.input, await pending.read(), pending) as Fields;
  if (operation.routing === 'none') return { local: true, input, user };

  const plan = operation.planField ? await authorizedPlan(request, user, text(input[operation.planField]) ?? '') : null;
  await checkLineOwnership(operation, input, request, user);
  const carrierId = await resolveCarrier(operation, input, request, user, plan, settings.default_carrier);
  if (!settings.carriers_enabled[carrierId]) throw new CarrierDisabledError(carrierId);
  const carrier = services.carriers.adapter(carrierId);
  const extended = carrier.extended;
  if (operation.extended && !extended) {
    throw new NotSupportedError(`${operation.name} is not supported by carrier ${carrierId}`);
  }
  return { local: false, input, user, plan, carrierId, carrier, extended };
}

async function runPipeline(
  operation: RegisteredOperation,
  pending: PendingInput,
  request: RequestContext,
  options: ExecuteOptions,
): Promise<Outcome<unknown>> {
  const { services } = request;
  const spend: RateLimitStep = async (user) => {
    if (operation.rateLimit && !options.budgeted)
      request.rateLimit = await services.rateLimiter.consume(user.id, operation.name, operation.rateLimit);
  };
  const admitted = await admit(operation, pending, request, spend);
  const { input, user } = admitted;

  if (operation.routing === 'none') {
    // A local operation that calls carriers (bulk activation, an assignment that looks a line up)
    // is charged what GraphQL priced it, one call, whatever it made: its own rate limit bounds it.
    if (operation.usesCarriers) spendCarrierCall(request);
    const runOperation = (item: RegisteredOperation, itemInput: unknown) =>
      executeOperation(item, givenInput(itemInput), request);
    return operation.run({ input, user, services, request, runOperation });
  }
  // admit() resolves a carrier for every carrier-routed row.
  if (admitted.local) throw new Error(`${operation.name} is carrier-routed but was admitted as local`);
  const { plan, carrierId, carrier, extended } = admitted;

  const records = operation.kind === 'mutation' && operation.transactionPrefix !== undefined;
  const namedLine = text(input[operation.lineField]);
  const transactionId =
    text(input.transactionId) ??
    (operation.transactionPrefix ? generateTransactionId(operation.transactionPrefix) : '');
  // Counted whether or not the call is shared with another request (below): what a request is
  // charged must not depend on who else happens to ask the same thing at the same moment. A call
  // beyond the request's price is refused here, before anything is recorded.
  spendCarrierCall(request);
  if (records) {
    const reserved = await services.transactions
      .reserveOrRetake({
        id: transactionId,
        userId: user.id,
        operation: operation.name,
        carrier: carrierId,
        mdn: namedLine,
        sim: text(input.sim),
        request: input,
      })
      .catch((error: unknown) => {
        request.carrierCalls -= 1; // no call made (the id is taken, the log unavailable): not charged
        throw error;
      });
    // The earlier attempt's row is now this request's: its trace is the count on the row and this line.
    if (reserved === 'retaken')
      request.logger.info('transaction id taken over by a retry after an attempt that had no effect at the carrier', {
        transactionId,
        operation: operation.name,
      });
  }

  const context: CarrierCall = { input, user, services, request, carrierId, carrier, extended, transactionId, plan };
  const finish = async (status: TransactionStatus, outcome: Outcome<unknown>, noEffect = false) => {
    if (!records) return outcome;
    // A request naming no line (an activation) is recorded under the line its answer names.
    const answeredLine = namedLine ? undefined : text((outcome.body as Fields | null)?.mdn);
    const event =
      status === 'success'
        ? lineEventOf(operation, { input, answer: outcome.body, transactionId, actorId: user.id, carrier: carrierId })
        : null;
    await services.transactions.complete(transactionId, status, outcome.status, convertKeys(outcome.body, toSnake), {
      namedLine,
      answeredLine,
      event,
      noEffect,
    });
    return outcome;
  };

  const carrierOutcome = (outcome: string) => services.metrics.carrierOutcomes.inc({ carrier: carrierId, outcome });
  try {
    const call = () => runCarrierHandler(operation, context);
    // Every step of this request has passed: it may now share an identical read in flight.
    // Inside this request's slot, so that a flight is one at the carrier (never one queued
    // behind another request's calls) and each request keeps its own bound.
    const read = operation.coalesce ? () => sharedRead(operation, context, call) : call;
    const answer = await (options.carrierSlot ? options.carrierSlot(carrierId, read) : read());
    carrierOutcome(answer.refused ? 'refused' : 'answered');
    // A SIM-keyed query (no record): under `strict`, an unrecorded SIM the answer shows on a line is refused.
    if (answer.status === 'success') await checkAnsweredSims(operation, input, request, user, answer.outcome.body);
    return await finish(answer.status, answer.outcome);
  } catch (error) {
    if (error instanceof CarrierFault) {
      carrierOutcome(error.kind);
      const failure = new CarrierUnavailableError(
        error.message,
        error.kind === 'timeout',
        error.outcomeKnown,
        records ? transactionId : null,
        (code, message) => faultFields(operation, context, code, message) ?? askedAbout(namedLine, input),
        error.paused,
      );
      request.logger.warn('carrier fault', { operation: operation.name, carrier: carrierId, kind: error.kind });
      // A known outcome here is a write that never reached the carrier (a refused connection on
      // every attempt) or that it turned away before acting (401): nothing changed there, so the
      // caller may retry under the same id. A handler makes one carrier write, and a read after
      // it handles its own faults (restoreLine), so a known fault that ends the handler is the
      // write's or came before it.
      await finish(
        error.outcomeKnown ? 'error' : 'unknown',
        { status: failure.status, body: failure.restBody() },
        error.outcomeKnown,
      );
      // A write that may have happened is a debt: the reconciler re-sends it with the same id.
      if (records && !error.outcomeKnown) services.recovery.resolveSoon(transactionId);
      throw failure;
    }
    if (records) {
      // Record what the caller will see before the error travels on (to be logged if unexpected).
      const seen = isGatewayError(error)
        ? { status: error.status, body: error.restBody() }
        : { status: 500, body: { detail: 'Internal server error', request_id: request.requestId } };
      // An unexpected error may come after the carrier acted (recording the line, the answer):
      // not `error` (did not happen) but `unknown`, which the reconciler re-sends and resolves.
      const status = isGatewayError(error) ? 'error' : 'unknown';
      // Of the gateway's own refusals only a carrier without credentials is known to come before
      // any carrier call; any other may follow the write, and keeps its id.
      const noEffect = error instanceof CarrierNotConfiguredError;
      await services.transactions
        .complete(transactionId, status, seen.status, seen.body, { noEffect })
        .catch(() => undefined);
      if (status === 'unknown') services.recovery.resolveSoon(transactionId);
    }
    throw error;
  }
}

/** The line (or, for an activation, the SIM) a failure envelope names. */
function askedAbout(namedLine: string | undefined, input: Fields): Record<string, string> {
  if (namedLine) return { mdn: namedLine };
  const sim = text(input.sim);
  return sim ? { sim } : {};
}

async function authorizedPlan(request: RequestContext, user: UserRecord, planId: string): Promise<PlanRecord> {
  const { directory } = request.services;
  const [authorized, plan] = await Promise.all([directory.authorizedPlanIds(user.id), directory.plan(planId)]);
  if (!plan || !authorized.has(planId)) throw new PlanNotAuthorizedError(planId);
  return plan;
}
