// Dry runs: an operation taken through every step that changes nothing (auth, superuser,
// maintenance, rate limit, validation, plan authorization, line ownership, carrier
// resolution, the transaction id) and then through its prediction (the carrier's read-only
// checks, or a local operation's own), answering what the real call would do. It reserves no
// transaction id, spends none of the operation's budget (only the shared dry-run budget, and a
// batch's of its own) and writes nothing anywhere.

import { CarrierFault, CarrierRejection } from '../carriers/errors.js';
import { CarrierUnavailableError, DuplicateTransactionError, NotSupportedError } from '../errors/gateway-errors.js';
import { mayRetake } from './transaction-log.js';
import { quote } from '../lib/quote.js';
import { DryRunChecks, type DryRunReport } from './dry-run-report.js';
import { failureEnvelope } from './carrier-handler.js';
import { admit, givenInput, type PendingInput, type RateLimitStep } from './execute.js';
import type { CarrierCall, CarrierRoutedOperation, RegisteredOperation } from './operation.js';
import { rateLimitMessage, type RateLimit } from './rate-limiter.js';
import { spendCarrierCall, type RequestContext } from './request-context.js';
import { locatedRefusal } from './validate.js';
import { ownershipRule } from './line-ownership.js';
import { nonEmptyText } from '../lib/text.js';

/**
 * Every dry run of a user shares this budget, apart from the operations' own: a dry run spends
 * no write budget (it only reads it, to predict a spent one), and this one keeps it from being a
 * free way to hammer carriers' read APIs.
 */
export const DRY_RUN_RATE_LIMIT: RateLimit = { max: 60, window: 'minute' };
export const DRY_RUN_POLICY = 'dryRun';

/** What a dry run answers: the report, and the body the real call would answer (GraphQL's payload). */
export interface DryRunAnswer {
  report: DryRunReport;
  preview: unknown;
}

type Fields = Record<string, unknown>;

const text = nonEmptyText;

const ALWAYS_UNPREDICTABLE = [
  'A change made between this dry run and the call (by you, another caller or the carrier)',
  'The carrier’s availability at the time of the call (timeouts, outages)',
];

export async function dryRunOperation(
  operation: RegisteredOperation,
  pending: PendingInput,
  request: RequestContext,
  options: { item?: boolean } = {},
): Promise<DryRunAnswer> {
  try {
    return await dryRun(operation, pending, request, options);
  } catch (error) {
    throw locatedRefusal(error, pending);
  }
}

/** What the line-ownership check that passed established, by the rule the caller is held to. */
const OWNERSHIP_PASSED = {
  enforced: 'The lines and SIMs named are the caller’s, or nobody’s',
  strict: 'The lines named are the caller’s, and the SIMs named are on them or on no line',
  none: 'No line-ownership rule applies to the caller',
} as const;

async function dryRun(
  operation: RegisteredOperation,
  pending: PendingInput,
  request: RequestContext,
  options: { item?: boolean },
): Promise<DryRunAnswer> {
  if (operation.kind !== 'mutation') throw new NotSupportedError(`${operation.name} is a query: nothing to dry-run`);
  const { services } = request;
  const checks = new DryRunChecks();
  let budgetSpent: string | null = null;
  // admit() calls this after authentication, the superuser check and maintenance mode passed.
  const checkBudget: RateLimitStep = async (user) => {
    checks.passed('authentication', `Caller ${quote(user.name)}`);
    if (operation.superuserOnly) checks.passed('superuser', 'The caller is a superuser');
    if (operation.usesCarriers) checks.passed('maintenance', 'Maintenance mode is off');
    // A bulk request's items were paid for by the request's own dry run.
    if (!options.item)
      request.rateLimit = await services.rateLimiter.consume(user.id, DRY_RUN_POLICY, DRY_RUN_RATE_LIMIT);
    if (!operation.rateLimit) return;
    const left = await services.rateLimiter.peek(user.id, operation.name, operation.rateLimit);
    if (left.remaining > 0) {
      checks.passed('rateLimit', `${left.remaining} of ${left.quota} calls left in the window (none spent)`);
    } else {
      // The prediction is what the real call would answer; the check adds when to try again.
      budgetSpent = rateLimitMessage(operation.rateLimit);
      checks.failed('rateLimit', `${budgetSpent}; retry in ${left.resetSeconds} s`);
    }
  };
  const admitted = await admit(operation, pending, request, checkBudget);
  const { input, user } = admitted;
  checks.passed('validation', 'The input is valid');
  const transactionId = text(input.transactionId) ?? null;
  if (transactionId) {
    const used = await services.transactions.find(transactionId);
    if (!used) checks.passed('transactionId', 'Not used yet (a dry run does not reserve it)');
    // The call would take the row over (src/pipeline/execute.ts): the dry run says so, and no more.
    else if (mayRetake(used, { userId: user.id, operation: operation.name }))
      checks.passed(
        'transactionId',
        'Used by your earlier attempt, which had no effect at the carrier: the call would retry it',
      );
    else throw new DuplicateTransactionError(transactionId);
  }

  const report = (carrier: DryRunReport['carrier']): DryRunReport => ({
    operation: operation.name,
    wouldSucceed: budgetSpent === null,
    carrier,
    transactionId,
    predictedCode: budgetSpent === null ? null : 'RATE_LIMITED',
    predictedMessage: budgetSpent,
    predictedWarning: budgetSpent === null ? checks.warning : null,
    checks: checks.made,
    unpredictable: checks.unpredictable,
  });

  if (operation.routing === 'none') {
    if (!operation.predict) throw new NotSupportedError(`${operation.name} has no dry run`);
    // A batch's dry run makes the carrier reads of every item: it also spends a dry-run budget
    // of the operation's own size (10 an hour for bulk activation), so it cannot be used to
    // send carriers thousands of reads a minute. Any other local operation's dry run costs what
    // a carrier-routed one does, at most, and is budgeted as one: the shared budget alone.
    if (operation.dryRunsItems && operation.rateLimit)
      await services.rateLimiter.consume(user.id, `${DRY_RUN_POLICY}:${operation.name}`, operation.rateLimit);
    // Counted as its real call is (execute.ts): one carrier call, whatever it reads (a batch's
    // items are paid for by the budget above, not counted one by one: see below).
    if (operation.usesCarriers) spendCarrierCall(request);
    const predictOperation = (item: RegisteredOperation, itemInput: unknown) => {
      // Items unbudgeted by a row that did not declare them would be free carrier reads.
      if (!operation.dryRunsItems)
        throw new Error(`${operation.name} dry-runs items but does not say so (dryRunsItems)`);
      return dryRunOperation(item, givenInput(itemInput), request, { item: true });
    };
    const preview = await operation.predict({ input, user, services, request, checks, predictOperation });
    return { report: report(null), preview };
  }

  if (admitted.local) throw new Error(`${operation.name} is carrier-routed but was admitted as local`);
  const { plan, carrierId, carrier, extended } = admitted;
  if (plan) checks.passed('planAuthorization', `Plan ${quote(plan.planId)} is authorized for the caller`);
  if (operation.ownedLines.length + operation.ownedSims.length > 0)
    checks.passed('lineOwnership', OWNERSHIP_PASSED[(await ownershipRule(request, user)) ?? 'none']);
  checks.passed('carrier', `Carrier ${carrierId} would take the call, and is enabled`);
  checks.cannotPredict(...ALWAYS_UNPREDICTABLE);
  const call: CarrierCall = {
    input,
    user,
    services,
    request,
    carrierId,
    carrier,
    extended,
    transactionId: transactionId ?? '',
    plan,
  };
  // A batch's items are paid for by the batch (above); any other dry run spends its call.
  if (!options.item) spendCarrierCall(request);
  try {
    await predictCarrierSide(operation, call, checks);
  } catch (error) {
    if (error instanceof CarrierFault) {
      throw new CarrierUnavailableError(error.message, error.kind === 'timeout', true, null, {}, error.paused);
    }
    if (!(error instanceof CarrierRejection)) throw error;
    const outcome =
      operation.rejection(error, call) ?? failureEnvelope(input, call.transactionId, error, operation.lineField);
    const predicted: DryRunReport = {
      ...report(carrierId),
      wouldSucceed: false,
      // The gateway's own refusal comes first: a spent budget is answered before the carrier.
      predictedCode: budgetSpent === null ? error.code : 'RATE_LIMITED',
      predictedMessage: budgetSpent ?? error.message,
      predictedWarning: null,
    };
    return { report: predicted, preview: outcome.body };
  }
  return { report: report(carrierId), preview: successPreview(operation, input, call.transactionId, checks.warning) };
}

async function predictCarrierSide(
  operation: CarrierRoutedOperation,
  call: CarrierCall,
  checks: DryRunChecks,
): Promise<void> {
  if (!operation.predict) {
    checks.cannotPredict(`The carrier’s own checks of ${operation.name} (it offers no read-only equivalent)`);
    return;
  }
  await operation.predict({ ...call, checks });
}

/** The success envelope a write would answer, as far as it is known before the carrier answers. */
function successPreview(
  operation: CarrierRoutedOperation,
  input: Fields,
  transactionId: string,
  warning: string | null,
): Fields {
  return {
    status: 'success',
    mdn: text(input[operation.lineField]) ?? null,
    sim: text(input.sim) ?? null,
    transactionId,
    message: 'Success (dry run: nothing was sent to the carrier)',
    // The only warning a write answers: Wi-Fi Calling could not be added.
    ...(warning === null ? {} : { warning, wfcStatus: false }),
  };
}
