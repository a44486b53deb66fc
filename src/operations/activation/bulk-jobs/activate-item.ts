// One SIM of a bulk activation: the single activation's definition (without its route and rate
// limit: the batch is counted once, by its own limit) run through the shared pipeline under the
// transaction id the job gave it, its answer turned into the SIM's entry. A job resumed after a
// crash reads the entry of a SIM already sent from the transaction log instead, as does
// recovery when it learns the outcome of a SIM whose answer was lost (recovered-items.ts).

import { CarrierUnavailableError, isGatewayError } from '../../../errors/gateway-errors.js';
import { asDatabaseUnavailable, DatabaseUnavailableError } from '../../../errors/database-unavailable.js';
import { executeOperation, givenInput } from '../../../pipeline/execute.js';
import { ownershipRule } from '../../../pipeline/line-ownership.js';
import type { DryRunReport } from '../../../pipeline/dry-run-report.js';
import type { LocalPredictionContext } from '../../../pipeline/operation.js';
import type { RequestContext } from '../../../pipeline/request-context.js';
import { wasRecovered } from '../../../pipeline/transaction-log.js';
import { defineOperation } from '../../define.js';
import type { OperationResult } from '../../schemas/envelope.js';
import { activationSpec } from '../activate-sim.js';
import type { BulkActivationEntry } from '../bulk-result.js';
import type { ActivationFields } from '../fields.js';
import type { LoggedAnswer } from './job-store.js';

const activationItem = defineOperation<ActivationFields, OperationResult>(activationSpec);

let lastStamp = 0;

/** `BULK_<sim>_<epoch ms>`; strictly increasing stamps keep ids unique within this process. */
export function bulkTransactionId(sim: string): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `BULK_${sim}_${lastStamp}`;
}

export function failedEntry(sim: string, transactionId: string, message: string): BulkActivationEntry {
  return { sim, status: 'failure', transactionId, message, error: [message] };
}

function entryOf(sim: string, transactionId: string, body: OperationResult): BulkActivationEntry {
  if (body.status === 'failure') return failedEntry(sim, transactionId, body.message);
  return {
    sim,
    status: 'success',
    transactionId,
    mdn: body.mdn ?? undefined,
    message: body.message,
    ...(body.warning === undefined ? {} : { warning: body.warning, wfcStatus: body.wfcStatus }),
  };
}

/** SIMs looked up at once when a job primes its loader (well under any database's parameter limit). */
const SIMS_PER_LOOKUP = 500;

/**
 * Looks up the lines holding a job's SIMs a few hundred at a time, so that each SIM's ownership
 * check (the single activation's: a SIM on another user's line is refused) reads the job's
 * loader instead of making a query of its own. Nothing is looked up when the rule does not apply.
 */
export async function primeSimHomes(request: RequestContext, sims: readonly string[]): Promise<void> {
  if (!request.user || !(await ownershipRule(request, request.user))) return;
  for (let start = 0; start < sims.length; start += SIMS_PER_LOOKUP) {
    const chunk = sims.slice(start, start + SIMS_PER_LOOKUP);
    const homes = await request.services.lines.bySims(chunk);
    for (const sim of chunk) request.simHomes.prime(sim, homes.get(sim) ?? null);
  }
}

/** A SIM's entry, and whether its outcome may be other than the entry says. */
export interface ItemAnswer {
  entry: BulkActivationEntry;
  /**
   * The SIM's call may have reached the carrier without its answer coming back (a carrier
   * fault of unknown outcome, or an unexpected error, which the pipeline records `unknown` when
   * it came after the reservation): its transaction row, if this SIM reserved one, is read
   * when the entry is written, and recovery rewrites the entry once it learns the outcome.
   */
  outcomeUnknown: boolean;
  /**
   * Set when the SIM was not sent because its carrier's breaker refuses calls for now
   * (src/carriers/circuit-breaker.ts): that carrier.
   */
  pausedCarrier?: string;
  /**
   * Set when the database stopped answering during the SIM: its entry cannot be trusted (the
   * reservation, the carrier call or its record may or may not have happened) nor written.
   */
  databaseDown?: boolean;
}

export async function activateItem(
  input: ActivationFields,
  transactionId: string,
  request: RequestContext,
): Promise<ItemAnswer> {
  try {
    const outcome = await executeOperation(activationItem, givenInput({ ...input, transactionId }), request);
    // activationItem answers only with the envelope (its handler or its onRejection).
    return { entry: entryOf(input.sim, transactionId, outcome.body as OperationResult), outcomeUnknown: false };
  } catch (error) {
    if (asDatabaseUnavailable(error) || error instanceof DatabaseUnavailableError) {
      const message = 'The database is not answering';
      return { entry: failedEntry(input.sim, transactionId, message), outcomeUnknown: true, databaseDown: true };
    }
    // Refusals that answer a whole single request (403 plan, 409 id, 400 carrier fault, 503 carrier)
    // are this SIM's failure here; anything unexpected is logged and reported without detail.
    // A 409 never marks the outcome unknown: the row under that id is another request's.
    if (isGatewayError(error)) {
      const fault = error instanceof CarrierUnavailableError;
      const lost = fault && !error.outcomeKnown && error.transactionId !== null;
      // A fault's entry reads as the single activation's answer does (and as the transaction log
      // keeps it, which a resumed job reads): its message ends with the fault's code.
      const message = fault ? error.restBody().message : error.message;
      const paused = fault && error.paused ? { pausedCarrier: error.paused.carrier } : {};
      return { entry: failedEntry(input.sim, transactionId, message), outcomeUnknown: lost, ...paused };
    }
    request.logger.error('bulk activation item failed', { sim: input.sim, err: error });
    const message = `Internal server error (request ${request.requestId})`;
    return { entry: failedEntry(input.sim, transactionId, message), outcomeUnknown: true };
  }
}

/**
 * The entry of a SIM whose answer the transaction log holds (its `response` is in REST's
 * snake_case), `recovered` when that answer was learned by re-sending it after it was lost.
 */
export function entryFromTransaction(sim: string, row: LoggedAnswer): BulkActivationEntry {
  const response = (row.response ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const message = text(response.message) ?? text(response.detail) ?? `Transaction ${row.id} ended ${row.status}`;
  const recovered = wasRecovered(row) ? { recovered: true } : {};
  if (row.status !== 'success') return { ...failedEntry(sim, row.id, message), ...recovered };
  const entry = entryOf(sim, row.id, {
    status: 'success',
    transactionId: row.id,
    mdn: text(response.mdn) ?? null,
    message,
    warning: text(response.warning),
    wfcStatus: typeof response.wfc_status === 'boolean' ? response.wfc_status : undefined,
  });
  return { ...entry, ...recovered };
}

/** One SIM's dry run, as the single activation's (a bulk dry run's item). */
export function predictItem(
  context: LocalPredictionContext<unknown>,
  input: ActivationFields,
): Promise<{ report: DryRunReport; preview: unknown }> {
  return context.predictOperation(activationItem, input);
}
