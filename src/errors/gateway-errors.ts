// Every refusal the gateway itself makes, each carrying its HTTP status, its GraphQL error
// code and its REST body (the spec's shapes; FastAPI's `{detail}` where the spec shows it).
// Caller input in a message goes through `quote` (bounded).

import { quote } from '../lib/quote.js';

export interface ValidationIssue {
  type: string;
  /** e.g. ['body', 'state'] or ['path', 'mdn']. */
  loc: (string | number)[];
  msg: string;
}

export abstract class GatewayError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  headers(): Record<string, string> {
    return {};
  }
  /** Extra GraphQL error extensions. */
  extensions(): Record<string, unknown> {
    return {};
  }
  restBody(): unknown {
    return { status: 'failure', message: this.message, code: `HTTP_${this.status}` };
  }
}

export class UnauthenticatedError extends GatewayError {
  override readonly name = 'UnauthenticatedError';
  readonly status = 401;
  readonly code = 'UNAUTHENTICATED';
  override headers() {
    return { 'www-authenticate': 'Bearer' };
  }
  override restBody() {
    return { detail: this.message };
  }
}

/**
 * A GraphQL request reached a carrier call beyond the calls it was priced (and charged) at: the
 * call is not made, and the field that asked for it answers this error. The price
 * (src/graphql/query-cost.ts) is an upper bound of the calls a request makes, so this is met
 * only when it missed one; the code is the one of a request refused for its cost.
 */
export class CarrierCallOverCostError extends GatewayError {
  override readonly name = 'CarrierCallOverCostError';
  readonly status = 400;
  readonly code = 'QUERY_TOO_COSTLY';
  constructor(readonly cost: number) {
    super(
      `This request was priced at ${cost} carrier calls and has made them all, so this field's call was not made; ask for fewer lines or fields`,
    );
  }
  override extensions() {
    return { cost: this.cost };
  }
}

/** Superuser-only operation called by someone else. */
export class ForbiddenError extends GatewayError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
  readonly code = 'FORBIDDEN';
  constructor(message = "The user doesn't have enough privileges") {
    super(message);
  }
  override restBody() {
    return { detail: this.message };
  }
}

export class PlanNotAuthorizedError extends GatewayError {
  override readonly name = 'PlanNotAuthorizedError';
  readonly status = 403;
  readonly code = 'PLAN_NOT_AUTHORIZED';
  constructor(readonly planId: string) {
    super(`Plan ${quote(planId)} is not authorized for this user`);
  }
}

/** A line (or SIM) named by the request belongs to another user. Never says whose. */
export class LineNotOwnedError extends GatewayError {
  override readonly name = 'LineNotOwnedError';
  readonly status = 403;
  readonly code = 'FORBIDDEN';
  /** `strict`: one message whoever holds the number, or nobody (the rule's refusals must not tell them apart). */
  constructor(kind: 'line' | 'SIM' | 'account', value: string, rule: 'enforced' | 'strict' = 'enforced') {
    // Validation bounded the value already; the cut keeps that true should a field ever loosen.
    const shown = value.length > 32 ? `${value.slice(0, 32)}…` : value;
    const message =
      rule === 'strict'
        ? {
            line: `Line ${shown} is not one of your lines`,
            SIM: `SIM ${shown} is not on one of your lines`,
            account: `No line of account ${shown} is one of your lines`,
          }[kind]
        : `${{ line: 'Line', SIM: 'The line of SIM', account: 'Every line of account' }[kind]} ${shown} belongs to another user`;
    super(message);
  }
}

export class ValidationFailedError extends GatewayError {
  override readonly name = 'ValidationFailedError';
  readonly status = 422;
  readonly code = 'BAD_USER_INPUT';
  /**
   * `placeDepth`: how many leading members of each `loc` say where the input is rather than
   * which member (REST's `body`, a GraphQL mutation's `input`); 0 when `loc` starts at the
   * member (a GraphQL field's own argument). The message names members from there.
   */
  constructor(
    readonly issues: ValidationIssue[],
    placeDepth = 1,
  ) {
    super(
      issues.map((issue) => `${issue.loc.slice(placeDepth).join('.') || issue.loc.join('.')}: ${issue.msg}`).join('; '),
    );
  }
  override extensions() {
    return { issues: this.issues };
  }
  override restBody() {
    return { detail: this.issues };
  }
}

/**
 * A member of the input refused by an operation's own rule once the input validated (a
 * setting's value against the other settings, a webhook URL's resolved address): the pipeline
 * (`locatedRefusal` in pipeline/validate.ts) answers it as the 422 of that member, located as
 * validation locates it on each surface (REST `["body","value"]`, GraphQL `["input","value"]`).
 */
export class InputRefusal extends Error {
  override readonly name = 'InputRefusal';
  constructor(
    /** The member, in camelCase, as the operation's input names it. */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class DuplicateTransactionError extends GatewayError {
  override readonly name = 'DuplicateTransactionError';
  readonly status = 409;
  readonly code = 'DUPLICATE_TRANSACTION';
  constructor(readonly transactionId: string) {
    super(`Transaction ID ${quote(transactionId)} already exists`);
  }
  override extensions() {
    return { transactionId: this.transactionId };
  }
}

export class RateLimitedError extends GatewayError {
  override readonly name = 'RateLimitedError';
  readonly status = 429;
  readonly code = 'RATE_LIMITED';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    /** The RateLimit headers of the exhausted policy. */
    readonly limitHeaders: Record<string, string> = {},
  ) {
    super(message);
  }
  override headers() {
    return { ...this.limitHeaders, 'retry-after': String(this.retryAfterSeconds) };
  }
  override extensions() {
    return { retryAfter: this.retryAfterSeconds };
  }
}

export class NotSupportedError extends GatewayError {
  override readonly name = 'NotSupportedError';
  readonly status = 501;
  readonly code = 'NOT_SUPPORTED';
}

/** A 503 that tells the client when to try again: Retry-After on REST, `extensions.retryAfter` on GraphQL. */
export abstract class TryAgainLaterError extends GatewayError {
  readonly status = 503;
  constructor(
    message: string,
    private readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
  override headers() {
    return { 'retry-after': String(this.retryAfterSeconds) };
  }
  /** GraphQL carries the hint as RATE_LIMITED does: a field error's headers cannot be sent. */
  override extensions() {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/** When a client refused for maintenance is told to try again. */
const MAINTENANCE_RETRY_SECONDS = 60;

export class MaintenanceError extends TryAgainLaterError {
  override readonly name = 'MaintenanceError';
  readonly code = 'MAINTENANCE';
  constructor() {
    super('Service is in maintenance mode: carrier operations are disabled', MAINTENANCE_RETRY_SECONDS);
  }
}

export class CarrierDisabledError extends GatewayError {
  override readonly name = 'CarrierDisabledError';
  readonly status = 503;
  readonly code = 'CARRIER_DISABLED';
  constructor(readonly carrier: string) {
    super(`Carrier ${carrier} is disabled by an administrator`);
  }
}

/**
 * What a fault's REST body carries besides `status` and `message`, in REST's snake_case: the line
 * asked about, or the operation's own failure envelope, built from the fault's code and message.
 */
export type FaultFields = Record<string, unknown> | ((code: string, message: string) => Record<string, unknown>);

/**
 * A carrier that did not answer, or not in its wire format; the transaction row says whether
 * anything happened. The spec has one status for an upstream carrier operation that failed, 400,
 * with the operation's failure envelope whose `message` ends in a code in parentheses: REST
 * answers exactly that (code CARRIER_TIMEOUT or CARRIER_UNAVAILABLE, the write's transaction id),
 * so a legacy client handles a fault as it handles a refusal. GraphQL tells the two apart by
 * `extensions.code`.
 */
export class CarrierUnavailableError extends GatewayError {
  override readonly name = 'CarrierUnavailableError';
  readonly status = 400;
  readonly code: string;
  private readonly fields: Record<string, unknown>;
  constructor(
    message: string,
    timedOut: boolean,
    readonly outcomeKnown: boolean,
    readonly transactionId: string | null,
    fields: FaultFields = {},
    /** Set when the call was not sent because the carrier's breaker is open: which, and when to try again. */
    readonly paused?: { carrier: string; retryAfterSeconds: number },
  ) {
    super(outcomeKnown ? message : `${message}; the outcome is unknown, look it up by transaction id before retrying`);
    this.code = timedOut ? 'CARRIER_TIMEOUT' : 'CARRIER_UNAVAILABLE';
    this.fields = typeof fields === 'function' ? fields(this.code, this.message) : fields;
  }
  override headers(): Record<string, string> {
    return this.paused ? { 'retry-after': String(this.paused.retryAfterSeconds) } : {};
  }
  override extensions() {
    const retry = this.paused ? { retryAfter: this.paused.retryAfterSeconds } : {};
    return { transactionId: this.transactionId, outcomeKnown: this.outcomeKnown, ...retry };
  }
  override restBody() {
    const transaction = this.transactionId === null ? {} : { transaction_id: this.transactionId };
    return { status: 'failure', ...this.fields, ...transaction, message: `${this.message} (${this.code})` };
  }
}

export class NotFoundError extends GatewayError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
  readonly code = 'NOT_FOUND';
  override restBody() {
    return { detail: this.message };
  }
}

export class InternalError extends GatewayError {
  override readonly name = 'InternalError';
  readonly status = 500;
  readonly code = 'INTERNAL_SERVER_ERROR';
  constructor(readonly requestId: string) {
    super('Internal server error');
  }
  override extensions() {
    return { requestId: this.requestId };
  }
  override restBody() {
    return { detail: this.message, request_id: this.requestId };
  }
}

export function isGatewayError(error: unknown): error is GatewayError {
  return error instanceof GatewayError;
}
