// An open subscription keeps the rights its caller has now, not those it had when it began: the
// token is authenticated again before every event is sent and every STREAM_RECHECK_MS while
// none comes (from the replica's token and user caches, which revocations and user changes
// invalidate on every replica at once, so a check costs no query). A stream whose token was
// revoked or has expired, or whose user was deactivated, ends with UNAUTHENTICATED; one whose
// user lost superuser rights ends with FORBIDDEN (subscribing again gives the view they have
// now). The event that found the change is not sent. A source that ends with the gateway's own
// refusal (SUBSCRIPTION_LAGGED) ends the stream the same way, with that error.

import { GraphQLError, type ExecutionResult } from 'graphql';
import { Repeater } from 'graphql-yoga';
import { AuthenticationError } from '../auth/errors.js';
import { ForbiddenError, GatewayError, UnauthenticatedError } from '../errors/gateway-errors.js';
import type { RequestContext } from '../pipeline/request-context.js';

/** How often a stream with no event to send checks its caller: within a second, as revocation promises. */
export const STREAM_RECHECK_MS = 1_000;

const ended: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Why the caller may no longer receive the stream, or null when they still may. */
async function refusalOf(context: RequestContext, authorization: string | undefined): Promise<GatewayError | null> {
  const before = context.user!;
  let user;
  try {
    user = await context.services.authenticator.authenticate(authorization);
  } catch (error) {
    if (error instanceof AuthenticationError) return new UnauthenticatedError(error.message);
    throw error;
  }
  if (before.superuser && !user.superuser)
    return new ForbiddenError('Superuser rights were withdrawn since this subscription began: subscribe again');
  // Filters read the caller from the context: they see the user as they are now.
  context.user = user;
  return null;
}

function gatewayErrorIn(error: unknown): GatewayError | null {
  if (error instanceof GatewayError) return error;
  return error instanceof GraphQLError && error.originalError instanceof GatewayError ? error.originalError : null;
}

/**
 * `source`, ended (after one error event) as soon as its caller may no longer receive it, and
 * ended cleanly, with no event of its own, once `until` aborts (the replica is draining).
 */
export function whileAuthorized(
  source: AsyncIterable<ExecutionResult>,
  context: RequestContext,
  authorization: string | undefined,
  until?: AbortSignal,
): AsyncIterableIterator<ExecutionResult> {
  return new Repeater<ExecutionResult>(async (push, stop) => {
    const iterator = source[Symbol.asyncIterator]();
    const end = () => stop();
    if (until?.aborted) stop();
    else until?.addEventListener('abort', end, { once: true });
    let refused = false;
    const refuse = async (refusal: GatewayError) => {
      if (refused) return;
      refused = true;
      await push({ errors: [new GraphQLError(refusal.message, { originalError: refusal })] });
      stop();
    };
    const check = async () => {
      const refusal = await refusalOf(context, authorization);
      if (refusal) await refuse(refusal);
      return refusal === null;
    };
    const timer = setInterval(() => void check().catch((error: unknown) => stop(error)), STREAM_RECHECK_MS);
    const stopped = stop.then(() => ended);
    try {
      for (;;) {
        const next = await Promise.race([iterator.next(), stopped]);
        if (next.done || refused) break;
        if (!(await check())) break;
        await push(next.value);
      }
      stop();
    } catch (error) {
      // The source's own refusal (a subscription that fell too far behind), which graphql-js
      // hands on located, is told as this one's are.
      const refusal = gatewayErrorIn(error);
      if (refusal) await refuse(refusal);
      else stop(error);
    } finally {
      until?.removeEventListener('abort', end);
      clearInterval(timer);
      await iterator.return?.();
    }
  });
}
