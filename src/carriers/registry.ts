// The carriers this gateway can route to: their adapters, whether credentials are configured,
// and their readiness. (The admin's status view, which adds the runtime settings, is built by
// its one user, the carrierStatuses operation.)

import type { CarrierCallScope } from './call-scope.js';
import type { CarrierReadiness } from './probe.js';
import { CARRIER_IDS, type CarrierId, type CarrierOperations } from './types.js';

export interface CarrierConnection {
  /** Unscoped: its calls are counted nowhere (readiness probes, lookups outside an operation). */
  adapter: CarrierOperations;
  /** The adapter whose calls are counted under `scope`, the operation they serve. */
  scoped(scope: CarrierCallScope): CarrierOperations;
  /** True when the adapter has a complete set of credentials (never the credentials). */
  credentialsConfigured: boolean;
  /** One cheap authenticated read: is the carrier reachable with our credentials? */
  probe(): Promise<CarrierReadiness>;
  close(): Promise<void>;
}

export class CarrierRegistry {
  /** Carriers whose breaker refuses calls now (src/carriers/circuit-breaker.ts). */
  private readonly paused = new Set<string>();

  constructor(private readonly connections: Record<CarrierId, CarrierConnection>) {}

  /** Whether the carrier's calls are refused now, its breaker open; what a bulk job waits on. */
  callsPaused(carrier: string): boolean {
    return this.paused.has(carrier);
  }

  /** Told by the carrier's breaker when it opens or closes. */
  breakerChanged(carrier: CarrierId, transition: 'opened' | 'closed'): void {
    if (transition === 'opened') this.paused.add(carrier);
    else this.paused.delete(carrier);
  }

  adapter(carrier: CarrierId): CarrierOperations {
    return this.connections[carrier].adapter;
  }

  /** The adapter an operation's handler calls: its carrier calls are counted under the operation. */
  scopedAdapter(carrier: CarrierId, scope: CarrierCallScope): CarrierOperations {
    return this.connections[carrier].scoped(scope);
  }

  credentialsConfigured(carrier: CarrierId): boolean {
    return this.connections[carrier].credentialsConfigured;
  }

  probe(carrier: CarrierId): Promise<CarrierReadiness> {
    return this.connections[carrier].probe();
  }

  async close(): Promise<void> {
    await Promise.all(CARRIER_IDS.map((carrier) => this.connections[carrier].close()));
  }
}
