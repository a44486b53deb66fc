// The two shapes a core function takes when it becomes a contract method: a write, answered
// once per transaction id (a repeat replays the first outcome), and a query. Both are async, so
// a refusal always arrives as a rejected promise, as it would from a carrier over the wire.

import type { CarrierOperations, CarrierWrite, ExtendedCarrierOperations } from '../../../carriers/types.js';
import { once } from '../replay.js';
import type { CoreContext } from '../state.js';

/** Replays are scoped by method name, so a replayed answer always has the shape its caller expects. */
type MethodName = Exclude<keyof CarrierOperations, 'carrier' | 'extended'> | keyof ExtendedCarrierOperations;

export function write<Request extends CarrierWrite, Result>(
  ctx: CoreContext,
  name: MethodName,
  run: (ctx: CoreContext, request: Request) => Result,
): (request: Request) => Promise<Result> {
  return async (request) => once(ctx, name, request.transactionId, () => run(ctx, request));
}

export function query<Args extends unknown[], Result>(
  ctx: CoreContext,
  run: (ctx: CoreContext, ...args: Args) => Result,
): (...args: Args) => Promise<Result> {
  return async (...args) => run(ctx, ...args);
}
