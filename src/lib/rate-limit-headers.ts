// IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers, structured-field form) for both
// surfaces: `RateLimit-Policy: "usage";q=60;w=60` names a quota and its window in seconds,
// `RateLimit: "usage";r=12;t=41` what remains of it and in how many seconds it is whole again.

export interface RateLimitState {
  /** Policy name: the operation (REST) or "graphql-cost" (the GraphQL cost budget). */
  policy: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const name = `"${state.policy}"`;
  return {
    'ratelimit-policy': `${name};q=${state.quota};w=${state.windowSeconds}`,
    ratelimit: `${name};r=${Math.max(0, Math.floor(state.remaining))};t=${Math.max(0, Math.ceil(state.resetSeconds))}`,
  };
}
