// Builds the carrier registry from the configuration: real carriers where a URL is set, the
// in-process sandbox carriers (over loopback HTTP, exactly like a real carrier) elsewhere.

import { ConfigError, type Config } from '../config.js';
import { faultsFromEnvironment } from '../sandbox/http-kit.js';
import { DEFAULT_SANDBOX_CREDENTIALS, startSandboxCarriers, type SandboxCarriers } from '../sandbox/start.js';
import { createCarrier321Adapter, type Carrier321Adapter } from '../carriers/carrier-321/adapter.js';
import { createCarrierBAdapter, type CarrierBAdapter } from '../carriers/carrier-b/adapter.js';
import { CarrierRegistry, type CarrierConnection } from '../carriers/registry.js';
import { unconfiguredCarrier } from '../carriers/unconfigured.js';
import { CARRIER_IDS, type CarrierId } from '../carriers/types.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';

export interface ConnectedCarriers {
  registry: CarrierRegistry;
  /** The in-process sandboxes, when any carrier uses one. */
  sandboxes: SandboxCarriers | null;
  /** Which carriers run on the in-process sandbox (for the start-up message). */
  sandboxed: string[];
}

export async function connectCarriers(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  observers?: { logger: Logger; metrics: Metrics },
): Promise<ConnectedCarriers> {
  const sandbox321 = !config.CARRIER_321_URL;
  const sandboxB = !config.CARRIER_B_URL;
  if ((sandbox321 || sandboxB) && config.SANDBOX_CARRIERS === 'off') {
    throw new ConfigError(
      `Invalid ${sandbox321 ? 'CARRIER_321_URL' : 'CARRIER_B_URL'}: required when SANDBOX_CARRIERS=off`,
    );
  }
  const credentials = {
    '321': { apiKey: config.CARRIER_321_API_KEY ?? DEFAULT_SANDBOX_CREDENTIALS['321'].apiKey },
    carrier_b: {
      accountId: config.CARRIER_B_ACCOUNT_ID ?? DEFAULT_SANDBOX_CREDENTIALS.carrier_b.accountId,
      apiSecret: config.CARRIER_B_API_SECRET ?? DEFAULT_SANDBOX_CREDENTIALS.carrier_b.apiSecret,
    },
  };
  const sandboxes =
    sandbox321 || sandboxB
      ? await startSandboxCarriers({ host: '127.0.0.1', credentials, faults: faultsFromEnvironment(env) })
      : null;
  const breaker = { failures: config.CARRIER_BREAKER_FAILURES, cooldownMs: config.CARRIER_BREAKER_COOLDOWN_MS };
  const timing = (carrier: CarrierId) => ({
    timeoutMs: config.CARRIER_TIMEOUT_MS,
    retries: config.CARRIER_RETRIES,
    breaker,
    onBreakerChange: (transition: 'opened' | 'closed') => {
      registry.breakerChanged(carrier, transition);
      observers?.metrics.carrierBreakerOpen.set({ carrier }, transition === 'opened' ? 1 : 0);
      if (transition === 'opened')
        observers?.logger.warn(
          `carrier ${carrier} is not answering: its calls are refused until its probe answers (first in ${breaker.cooldownMs} ms)`,
          { carrier, failuresInARow: breaker.failures },
        );
      else observers?.logger.info(`carrier ${carrier} answers again: its calls go through`, { carrier });
    },
  });

  const connectionOf = (adapter: Carrier321Adapter | CarrierBAdapter): CarrierConnection => ({
    adapter,
    scoped: adapter.scoped,
    credentialsConfigured: true,
    probe: () => adapter.probe(),
    close: () => adapter.close(),
  });
  const connect321 = (): CarrierConnection => {
    if (!sandbox321 && !config.CARRIER_321_API_KEY) return unconfiguredCarrier('321', true);
    const adapter = createCarrier321Adapter({
      baseUrl: config.CARRIER_321_URL ?? sandboxes!.urls['321'],
      apiKey: credentials['321'].apiKey,
      ...timing('321'),
    });
    return connectionOf(adapter);
  };
  const connectB = (): CarrierConnection => {
    if (!sandboxB && !(config.CARRIER_B_ACCOUNT_ID && config.CARRIER_B_API_SECRET))
      return unconfiguredCarrier('carrier_b', false);
    const adapter = createCarrierBAdapter({
      baseUrl: config.CARRIER_B_URL ?? sandboxes!.urls.carrier_b,
      ...credentials.carrier_b,
      ...timing('carrier_b'),
    });
    return connectionOf(adapter);
  };

  // Present from the start (0: calls go through), so that an alert on it sees the series.
  if (breaker.failures > 0)
    for (const carrier of CARRIER_IDS) observers?.metrics.carrierBreakerOpen.set({ carrier }, 0);
  const registry: CarrierRegistry = new CarrierRegistry({ '321': connect321(), carrier_b: connectB() });
  return {
    registry,
    sandboxes,
    sandboxed: [...(sandbox321 ? ['321'] : []), ...(sandboxB ? ['carrier_b'] : [])],
  };
}
