// De-duplication of writes by transaction id: a repeated id gets the first answer again (the
// same result, or the same refusal) and nothing is done twice. This is what makes the
// gateway's retries of writes safe.

import { CarrierRejection } from '../../carriers/errors.js';
import type { CoreContext, ReplayEntry } from './state.js';

/**
 * Answers kept for replay; the oldest are forgotten first. Like a real carrier's idempotency
 * window, this bounds memory in a sandbox that runs for days under load.
 */
export const REPLAY_CAPACITY = 100_000;

/**
 * Runs `write` once per (operation, transactionId). Scoped by operation so that a replayed
 * answer always has the shape its caller expects.
 */
export function once<T>(ctx: CoreContext, operation: string, transactionId: string, write: () => T): T {
  const key = `${operation}\u0000${transactionId}`;
  const seen = ctx.state.replays.get(key);
  if (seen) {
    if (!seen.ok) throw new CarrierRejection(seen.code, seen.text);
    return structuredClone(seen.value) as T;
  }
  try {
    const value = write();
    remember(ctx, key, { ok: true, value: structuredClone(value) });
    return value;
  } catch (error) {
    // Only business refusals are answers; a bug must not be frozen into the replay store.
    if (error instanceof CarrierRejection) remember(ctx, key, { ok: false, code: error.code, text: error.text });
    throw error;
  }
}

function remember(ctx: CoreContext, key: string, entry: ReplayEntry): void {
  const replays = ctx.state.replays;
  replays.set(key, entry);
  // Maps iterate in insertion order, so the first key is the oldest answer.
  if (replays.size > REPLAY_CAPACITY) replays.delete(replays.keys().next().value!);
}
