// Refusals of a whole GraphQL request before it runs that the shared pipeline does not make:
// each carries its HTTP status and code like every other gateway refusal.

import { GatewayError } from '../errors/gateway-errors.js';

export class QueryTooCostlyError extends GatewayError {
  override readonly name = 'QueryTooCostlyError';
  readonly status = 400;
  readonly code = 'QUERY_TOO_COSTLY';
  constructor(
    readonly cost: number,
    readonly maxCost: number,
  ) {
    super(
      `Query cost ${cost} exceeds the maximum of ${maxCost} carrier calls per request; ask for fewer lines or fields`,
    );
  }
  override extensions() {
    return { cost: this.cost, maxCost: this.maxCost };
  }
}

/** The caller's cost budget holds less than the request would spend: refused whole, nothing runs. */
export class ThrottledError extends GatewayError {
  override readonly name = 'ThrottledError';
  readonly status = 429;
  readonly code = 'THROTTLED';
  constructor(
    readonly cost: number,
    readonly available: number,
    readonly retryAfterSeconds: number,
    private readonly limitHeaders: Record<string, string>,
  ) {
    super(
      `Throttled: this request costs ${cost} points and ${available} are available; retry in ${retryAfterSeconds} s or ask for fewer lines or fields`,
    );
  }
  override headers() {
    return { ...this.limitHeaders, 'retry-after': String(this.retryAfterSeconds) };
  }
  override extensions() {
    return { cost: this.cost, available: this.available, retryAfter: this.retryAfterSeconds };
  }
}

/** A persisted-operation hash that is not on the allow-list (Apollo's APQ link then sends the document). */
export class PersistedOperationNotFoundError extends GatewayError {
  override readonly name = 'PersistedOperationNotFoundError';
  readonly status = 400;
  readonly code = 'PERSISTED_QUERY_NOT_FOUND';
  constructor() {
    // Apollo Client's persisted-queries link recognises this exact message.
    super('PersistedQueryNotFound');
  }
}

/** A document from a non-superuser while only persisted operations are accepted. */
export class PersistedOperationRequiredError extends GatewayError {
  override readonly name = 'PersistedOperationRequiredError';
  readonly status = 403;
  readonly code = 'PERSISTED_QUERY_REQUIRED';
  constructor() {
    super(
      'Only persisted operations are accepted: send extensions.persistedQuery.sha256Hash of an operation on the allow-list',
    );
  }
}

/** The answer cannot be given in any media type the request's Accept header allows. */
export class NotAcceptableError extends GatewayError {
  override readonly name = 'NotAcceptableError';
  readonly status = 406;
  readonly code = 'NOT_ACCEPTABLE';
}
