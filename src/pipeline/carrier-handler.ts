// What reaching the carrier means for one carrier-routed call, shared by the pipeline, dry runs
// and the reconciler's re-sends: the handler runs scoped to its operation, a carrier refusal
// becomes the spec's failure envelope, writes fence the shared reads around them, and a read that
// passed every step may join an identical one in flight.

import { CarrierRejection } from '../carriers/errors.js';
import { convertKeys, toSnake } from '../lib/case.js';
import { nonEmptyText } from '../lib/text.js';
import { refused } from './envelopes.js';
import type { CarrierCall, CarrierRoutedOperation, Outcome } from './operation.js';

type Fields = Record<string, unknown>;

/** The answer of an identical read in flight for any request, or of `call` shared from now on. */
export function sharedRead(
  operation: CarrierRoutedOperation,
  context: CarrierCall,
  call: () => Promise<CarrierAnswer>,
): Promise<CarrierAnswer> {
  const { carrierReads, metrics } = context.services;
  const shared = carrierReads.share(context.carrierId, operation.name, context.input, call);
  if (shared.joined) metrics.carrierReadsJoined.inc({ carrier: context.carrierId, operation: operation.name });
  return shared.answer;
}

/** A handler's answer as the transaction log records it: a carrier refusal is a known outcome. */
export interface CarrierAnswer {
  status: 'success' | 'failure';
  outcome: Outcome<unknown>;
  refused: boolean;
}

/**
 * Runs the operation's handler; a refusal becomes the operation's failure answer. Faults and
 * unexpected errors are thrown. The pipeline and the reconciler (re-sends) share it.
 */
export async function runCarrierHandler(
  operation: CarrierRoutedOperation,
  context: CarrierCall,
): Promise<CarrierAnswer> {
  // Every write reaches its carrier here (requests, bulk items, re-sends): reads that join a
  // shared call from now on, and again once it is done, must not be served one read before it.
  const writes = operation.kind === 'mutation' ? context.services.carrierReads : undefined;
  writes?.writeBoundary(context.carrierId);
  try {
    const { services } = context;
    // The handler calls the adapter scoped to this operation, so its carrier calls are counted under it.
    const carrier = services.carriers.scopedAdapter(context.carrierId, {
      operation: operation.name,
      metrics: services.metrics,
    });
    const outcome = await operation.run({ ...context, carrier, extended: carrier.extended });
    return { status: outcome.status < 300 ? 'success' : 'failure', outcome, refused: false };
  } catch (error) {
    if (!(error instanceof CarrierRejection)) throw error;
    const input = context.input as Fields;
    const outcome =
      operation.rejection(error, context) ?? failureEnvelope(input, context.transactionId, error, operation.lineField);
    return { status: 'failure', outcome, refused: true };
  } finally {
    writes?.writeBoundary(context.carrierId);
  }
}

/** The spec's failure envelope: status failure, the line, the transaction id, `text (CODE)`. */
export function failureEnvelope(
  input: Fields,
  transactionId: string,
  rejection: CarrierRejection,
  lineField = 'mdn',
): Outcome<unknown> {
  return refused(rejection, { mdn: nonEmptyText(input[lineField]) ?? null, transactionId });
}

/**
 * A carrier fault's REST fields in the operation's own failure envelope, where its refusal is a
 * 400 failure (usage's `errors`, SIM details' flags and nulls, a write's line and SIM): a legacy
 * client reads a fault as it reads a refusal. Undefined where the operation has none, and where
 * its refusal is an answer (coverage's "not covered", 200): a fault answers nothing.
 */
export function faultFields(
  operation: CarrierRoutedOperation,
  context: CarrierCall,
  code: string,
  message: string,
): Record<string, unknown> | undefined {
  const outcome = operation.rejection(new CarrierRejection(code, message), context);
  if (outcome?.status !== 400) return undefined;
  const {
    status: _status,
    message: _message,
    ...fields
  } = convertKeys(outcome.body, toSnake) as Record<string, unknown>;
  return fields;
}
