// Per-user, per-operation rate limits (graphql-rate-limit's sliding window). REST calls and
// GraphQL fields of the same operation share one identity, hence one budget.

import { getGraphQLRateLimiter } from 'graphql-rate-limit';
import { rateLimitHeaders, type RateLimitState } from '../lib/rate-limit-headers.js';
import { RateLimitedError } from '../errors/gateway-errors.js';
import type { RateLimitStore } from './rate-limit-store.js';

export interface RateLimit {
  max: number;
  window: 'minute' | 'hour';
}

const WINDOW = {
  minute: { ms: 60_000, library: '1m', text: '1 minute' },
  hour: { ms: 3_600_000, library: '1h', text: '1 hour' },
} as const;

/** What a call over `limit` is answered; a dry run predicts the same words. */
export const rateLimitMessage = (limit: RateLimit): string =>
  `Rate limit exceeded: ${limit.max} per ${WINDOW[limit.window].text}`;

export class RateLimiter {
  private readonly limiter: ReturnType<typeof getGraphQLRateLimiter>;

  constructor(private readonly store: RateLimitStore) {
    this.limiter = getGraphQLRateLimiter({
      identifyContext: (context: { userId: string }) => context.userId,
      store: store as unknown as Parameters<typeof getGraphQLRateLimiter>[0]['store'],
    });
  }

  /**
   * Counts one call and answers what is left of the operation's budget (for the RateLimit
   * headers); throws RateLimitedError (with Retry-After and the same headers) when over the limit.
   */
  async consume(userId: string, operation: string, limit: RateLimit): Promise<RateLimitState> {
    const window = WINDOW[limit.window];
    const refusal = await this.limiter(
      { parent: undefined, args: {}, context: { userId }, info: { fieldName: operation } as never },
      { max: limit.max, window: window.library, uncountRejected: true },
    );
    const state = await this.peek(userId, operation, limit);
    if (!refusal) return state;
    throw new RateLimitedError(
      rateLimitMessage(limit),
      state.resetSeconds,
      rateLimitHeaders({ ...state, remaining: 0 }),
    );
  }

  /** What is left of the operation's budget, without counting a call (dry runs). */
  async peek(userId: string, operation: string, limit: RateLimit): Promise<RateLimitState> {
    const window = WINDOW[limit.window];
    const now = Date.now();
    const timestamps = (await this.store.peek({ contextIdentity: userId, fieldIdentity: operation })).filter(
      (t) => t + window.ms > now,
    );
    const oldest = Math.min(...timestamps);
    const resetSeconds = Number.isFinite(oldest) ? Math.max(1, Math.ceil((oldest + window.ms - now) / 1000)) : 1;
    return {
      policy: operation,
      quota: limit.max,
      windowSeconds: window.ms / 1000,
      remaining: Math.max(0, limit.max - timestamps.length),
      resetSeconds,
    };
  }
}
