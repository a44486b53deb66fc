// What the gateway knows about one HTTP request, shared by REST and GraphQL: who is calling
// (or why they are not authenticated), its id, and a per-request batch loader for line homes
// so that a GraphQL list of lines costs one database query, not one per line.

import DataLoader from 'dataloader';
import type { UserRecord } from '../directory/types.js';
import type { LineHome } from '../lines/registry.js';
import type { RateLimitState } from '../lib/rate-limit-headers.js';
import type { Services } from './services.js';
import { AuthenticationError } from '../auth/errors.js';
import { CarrierCallOverCostError } from '../errors/gateway-errors.js';
import { childLogger, type Logger } from '../lib/logger.js';

export interface RequestContext {
  requestId: string;
  /** The gateway's logger with this request's id on every line. */
  logger: Logger;
  user: UserRecord | null;
  /** Why `user` is null: the 401 message. */
  authFailure: string;
  services: Services;
  lineHomes: DataLoader<string, LineHome | null>;
  /** The line holding each SIM, for SIM routing and ownership (one query per request, uncached across requests). */
  simHomes: DataLoader<string, LineHome | null>;
  /** Carrier calls this request has made so far (a GraphQL request's actual cost). */
  carrierCalls: number;
  /**
   * Carrier calls this request may make in all (spendCarrierCall): a GraphQL request's price
   * once it is paid, none before; unbounded (Infinity) elsewhere, where each operation's own
   * rate limit bounds the calls.
   */
  carrierCallLimit: number;
  /** The per-operation rate limit last counted for this request (REST's RateLimit headers). */
  rateLimit?: RateLimitState;
  /**
   * Whether the client that sent this request has gone (its connection closed before the
   * answer): carrier calls still waiting their turn for it are not made. Absent: never gone
   * (bulk jobs, re-sends).
   */
  clientGone?: () => boolean;
}

export async function createRequestContext(
  services: Services,
  requestId: string,
  authorization: string | readonly string[] | null,
  carrierCallLimit = Infinity,
  clientGone?: () => boolean,
): Promise<RequestContext> {
  let user: UserRecord | null = null;
  let authFailure = 'Not authenticated';
  try {
    user = await services.authenticator.authenticate(authorization);
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw error;
    authFailure = error.message;
  }
  return { ...requestContextFor(services, requestId, user), authFailure, carrierCallLimit, clientGone };
}

/** The context of a request made on behalf of a known user (the reconciler's re-sends). */
export function requestContextFor(services: Services, requestId: string, user: UserRecord | null): RequestContext {
  const lineHomes = new DataLoader<string, LineHome | null>(async (mdns) => {
    const homes = await services.lines.byMdns(mdns);
    return mdns.map((mdn) => homes.get(mdn) ?? null);
  });
  const simHomes = new DataLoader<string, LineHome | null>(async (sims) => {
    const homes = await services.lines.bySims(sims);
    return sims.map((sim) => homes.get(sim) ?? null);
  });
  return {
    requestId,
    logger: childLogger(services.logger, { requestId }),
    user,
    authFailure: 'Not authenticated',
    services,
    lineHomes,
    simHomes,
    carrierCalls: 0,
    carrierCallLimit: Infinity,
  };
}

/** Requests whose call over their price was logged (once each). */
const overCost = new WeakSet<RequestContext>();

/**
 * Counts one carrier call of the request, about to be made; or refuses it, counting nothing,
 * when the request has made every call it may (`carrierCallLimit`). Checked and counted in one
 * synchronous step, so that of two fields resolved at once only one can take the last call.
 */
export function spendCarrierCall(request: RequestContext): void {
  if (request.carrierCalls < request.carrierCallLimit) {
    request.carrierCalls += 1;
    return;
  }
  if (!overCost.has(request)) {
    overCost.add(request);
    // The price should never be short of the calls: this is a gap in it, or a way around it.
    request.logger.warn('carrier call refused: the request made every call it was priced at', {
      limit: request.carrierCallLimit,
    });
  }
  throw new CarrierCallOverCostError(request.carrierCallLimit);
}
