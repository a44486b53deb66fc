// A carrier whose URL is set but whose credentials are not: the gateway still starts (so an
// admin can see `credentials_configured: false` and /healthz can say why), and every call to
// it is refused with a clear 503 instead of reaching the carrier unauthenticated.

import { GatewayError } from '../errors/gateway-errors.js';
import type { CarrierConnection } from './registry.js';
import type { CarrierId, CarrierOperations, ExtendedCarrierOperations } from './types.js';

export class CarrierNotConfiguredError extends GatewayError {
  override readonly name = 'CarrierNotConfiguredError';
  readonly status = 503;
  readonly code = 'CARRIER_NOT_CONFIGURED';
  constructor(readonly carrier: CarrierId) {
    super(`Carrier ${carrier} has no credentials configured`);
  }
}

/** Every method refuses with a 503; `then` stays undefined so the proxy is never taken for a promise. */
function refusing<T extends object>(carrier: CarrierId): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (property === 'then') return undefined;
      return () => Promise.reject(new CarrierNotConfiguredError(carrier));
    },
  });
}

/**
 * `supportsExtended`: whether the carrier has extended operations at all. Its extended
 * operations then answer the same 503 as the rest (missing credentials), not 501 (a carrier
 * that has no such operation).
 */
export function unconfiguredCarrier(carrier: CarrierId, supportsExtended: boolean): CarrierConnection {
  const operations = refusing<CarrierOperations>(carrier);
  const extended = supportsExtended ? refusing<ExtendedCarrierOperations>(carrier) : undefined;
  const adapter = new Proxy(operations, {
    get(target, property, receiver) {
      if (property === 'carrier') return carrier;
      if (property === 'extended') return extended;
      return Reflect.get(target, property, receiver);
    },
  });
  return {
    adapter,
    scoped: () => adapter,
    credentialsConfigured: false,
    probe: async () => 'missing credentials',
    close: async () => undefined,
  };
}
