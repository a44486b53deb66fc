// The carriers this gateway can route to: their adapters, whether credentials are
// configured, and the admin-facing status built with the runtime settings.

import type { CarrierReadiness } from './probe.js';
import type { SettingsValues } from '../settings/definitions.js';
import { displayNameKey } from '../settings/definitions.js';
import { CARRIER_IDS, type CarrierId, type CarrierOperations } from './types.js';

export interface CarrierConnection {
  adapter: CarrierOperations;
  /** True when the adapter has a complete set of credentials (never the credentials). */
  credentialsConfigured: boolean;
  /** One cheap authenticated read: is the carrier reachable with our credentials? */
  probe(): Promise<CarrierReadiness>;
  close(): Promise<void>;
}

export interface CarrierStatus {
  carrier: CarrierId;
  enabled: boolean;
  credentialsConfigured: boolean;
  displayName: string;
}

export class CarrierRegistry {
  constructor(private readonly connections: Record<CarrierId, CarrierConnection>) {}

  adapter(carrier: CarrierId): CarrierOperations {
    return this.connections[carrier].adapter;
  }

  statuses(settings: SettingsValues): CarrierStatus[] {
    return CARRIER_IDS.map((carrier) => ({
      carrier,
      enabled: settings.carriers_enabled[carrier],
      credentialsConfigured: this.connections[carrier].credentialsConfigured,
      displayName: settings[displayNameKey(carrier)],
    }));
  }

  probe(carrier: CarrierId): Promise<CarrierReadiness> {
    return this.connections[carrier].probe();
  }

  allConfigured(): boolean {
    return CARRIER_IDS.every((carrier) => this.connections[carrier].credentialsConfigured);
  }

  async close(): Promise<void> {
    await Promise.all(CARRIER_IDS.map((carrier) => this.connections[carrier].close()));
  }
}
