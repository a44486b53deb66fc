// A carrier whose URL is set but whose credentials are not: the gateway still starts (so an
// admin can see `credentials_configured: false` and /healthz can say why), and every call to
// it is refused with a clear 503 instead of reaching the carrier unauthenticated.

import { GatewayError } from '../pipeline/errors.js';
import type { CarrierConnection } from './registry.js';
import type { CarrierId, CarrierOperations } from './types.js';

export class CarrierNotConfiguredError extends GatewayError {
  override readonly name = 'CarrierNotConfiguredError';
  readonly status = 503;
  readonly code = 'CARRIER_NOT_CONFIGURED';
  constructor(readonly carrier: CarrierId) {
    super(`Carrier ${carrier} has no credentials configured`);
  }
}

export function unconfiguredCarrier(carrier: CarrierId): CarrierConnection {
  const adapter = new Proxy({ carrier } as CarrierOperations, {
    get(target, property) {
      if (property === 'carrier') return carrier;
      if (property === 'extended' || property === 'then') return undefined;
      return () => Promise.reject(new CarrierNotConfiguredError(carrier));
    },
  });
  return { adapter, credentialsConfigured: false, probe: async () => 'missing credentials', close: async () => undefined };
}
