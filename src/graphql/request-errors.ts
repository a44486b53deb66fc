// Refusals of a whole GraphQL request before it runs that the shared pipeline does not make:
// each carries its HTTP status and code like every other gateway refusal.

import { GatewayError } from '../pipeline/errors.js';

export class QueryTooCostlyError extends GatewayError {
  override readonly name = 'QueryTooCostlyError';
  readonly status = 400;
  readonly code = 'QUERY_TOO_COSTLY';
  constructor(
    readonly cost: number,
    readonly maxCost: number,
  ) {
    super(`Query cost ${cost} exceeds the maximum of ${maxCost} carrier calls per request; ask for fewer lines or fields`);
  }
  override extensions() {
    return { cost: this.cost, maxCost: this.maxCost };
  }
}
