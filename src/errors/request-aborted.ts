import { GatewayError } from './gateway-errors.js';

/**
 * The client went away (or a timeout cut it off) before its answer: its body unfinished, or its
 * carrier calls still waiting their turn. Nobody is left to answer; as a GatewayError it is
 * counted as 499 where the pipeline records its outcome.
 */
export class RequestAbortedError extends GatewayError {
  override readonly name = 'RequestAbortedError';
  readonly status = 499;
  readonly code = 'CLIENT_CLOSED_REQUEST';
}
