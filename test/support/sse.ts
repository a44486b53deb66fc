// Subscriptions from a real graphql-sse client (distinct connections mode) against a gateway on a
// real port: one client per stream, all disposed together when the test is done.

import { createClient, type Client } from 'graphql-sse';

export interface SseSubscriber {
  /** Opens a stream of `query` as the holder of `token`; its results, as the client yields them. */
  subscribe<Result>(token: string, query: string, variables?: Record<string, unknown>): AsyncIterableIterator<Result>;
  /** Closes every stream this subscriber opened. */
  dispose(): void;
}

export function sseSubscriber(url: () => string): SseSubscriber {
  const clients: Client[] = [];
  return {
    subscribe<Result>(token: string, query: string, variables: Record<string, unknown> = {}) {
      const client = createClient({
        url: `${url()}/graphql`,
        headers: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      clients.push(client);
      return client.iterate({ query, variables }) as AsyncIterableIterator<Result>;
    },
    dispose() {
      for (const client of clients.splice(0)) client.dispose();
    },
  };
}
