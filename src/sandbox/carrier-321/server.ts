// The carrier 321 sandbox: a stateful core behind carrier 321's resource-style REST wire
// format (docs/carriers/321.md), with API-key auth, sandbox controls and fault injection.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CarrierOperations } from '../../carriers/types.js';
import { createSandboxServer, type FaultSettings, type SandboxControls, type SandboxServer } from '../http-kit.js';
import { activationRoutes } from './routes/activation.js';
import { extendedRoutes } from './routes/extended.js';
import { featureRoutes } from './routes/features.js';
import { lifecycleRoutes } from './routes/lifecycle.js';
import { planRoutes } from './routes/plans.js';
import { queryRoutes } from './routes/queries.js';
import { renderWireError, unauthenticatedReply } from './wire.js';

export interface Carrier321SandboxOptions {
  core: CarrierOperations & SandboxControls;
  credentials: { apiKey: string };
  faults?: FaultSettings;
  /** Where unexpected errors (answered 500) are reported; defaults to stderr. */
  onUnexpectedError?: (error: unknown) => void;
}

export function createCarrier321SandboxServer(options: Carrier321SandboxOptions): SandboxServer {
  if (!options.credentials.apiKey) throw new TypeError('Carrier 321 sandbox: credentials.apiKey is required');
  const { core } = options;
  const report =
    options.onUnexpectedError ?? ((error: unknown) => console.error('carrier-321 sandbox: unexpected error', error));

  return createSandboxServer({
    routes: Object.values(carrier321Routes(core)),
    authenticate: apiKeyCheck(options.credentials.apiKey),
    unauthenticated: unauthenticatedReply,
    renderError(error) {
      const reply = renderWireError(error);
      if (reply.status >= 500) report(error);
      return reply;
    },
    controls: core,
    faults: options.faults,
  });
}

/** Every carrier route, keyed by the contract method it serves (the extended ones included). */
export function carrier321Routes(core: CarrierOperations) {
  return {
    ...featureRoutes(core),
    ...queryRoutes(core),
    ...lifecycleRoutes(core),
    ...planRoutes(core),
    ...activationRoutes(core),
    ...extendedRoutes(core),
  };
}

/**
 * Compares digests rather than the keys themselves so that neither the key's content nor
 * its length leaks through timing.
 */
function apiKeyCheck(apiKey: string): (headers: IncomingHttpHeaders) => boolean {
  const expected = digest(apiKey);
  return (headers) => {
    const header = headers['x-api-key'];
    const presented = Array.isArray(header) ? header[0] : header;
    if (presented === undefined) return false;
    return timingSafeEqual(digest(presented), expected);
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
