// Starts both sandbox carriers (321 and carrier_b), each its own in-memory core behind its
// own wire format on its own port, and reads their settings from the environment for
// `npm run sandbox`. The gateway's embedded mode starts them in-process the same way.

import type { CarrierId } from '../carriers/types.js';
import { createCarrier321SandboxServer } from './carrier-321/server.js';
import { createCarrierBSandboxServer } from './carrier-b/server.js';
import { SandboxCarrier } from './core/index.js';
import { DEFAULT_MDN_POOL_SIZE, MAX_MDN_POOL_SIZE } from './core/mdn-pool.js';
import { faultsFromEnvironment, type FaultSettings, type SandboxServer } from './http-kit.js';

export interface SandboxCredentials {
  '321': { apiKey: string };
  carrier_b: { accountId: string; apiSecret: string };
}

export interface SandboxCarriersOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port) for each carrier. */
  ports?: Partial<Record<CarrierId, number>>;
  credentials: SandboxCredentials;
  /** Applied to both carriers' routes; each server keeps its own copy. */
  faults?: FaultSettings;
  /** Numbers each carrier's pool holds (SandboxCarrierOptions.mdnPoolSize); default one exchange, 9,999. */
  mdnPoolSize?: number;
}

export interface SandboxCarriers {
  /** Base URLs, e.g. `http://127.0.0.1:4321`. */
  urls: Record<CarrierId, string>;
  /** The cores, for tests and tools that inspect or steer the sandboxes directly. */
  cores: Record<CarrierId, SandboxCarrier>;
  /** The wire servers, for tests that watch the requests a carrier receives or set its faults. */
  servers: Record<CarrierId, SandboxServer>;
  /** Closes both servers; safe to call more than once. */
  close(): Promise<void>;
}

export async function startSandboxCarriers(options: SandboxCarriersOptions): Promise<SandboxCarriers> {
  const host = options.host ?? '127.0.0.1';
  const ports = { '321': options.ports?.['321'] ?? 0, carrier_b: options.ports?.carrier_b ?? 0 };
  for (const [carrier, port] of Object.entries(ports)) {
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new RangeError(`Sandbox port for carrier ${carrier} must be 0–65535`);
  }
  const faults = options.faults ? { faults: options.faults } : {};

  const pool = options.mdnPoolSize === undefined ? {} : { mdnPoolSize: options.mdnPoolSize };
  const cores = {
    '321': new SandboxCarrier({ carrier: '321', ...pool }),
    carrier_b: new SandboxCarrier({ carrier: 'carrier_b', ...pool }),
  };
  const servers: Record<CarrierId, SandboxServer> = {
    '321': createCarrier321SandboxServer({ core: cores['321'], credentials: options.credentials['321'], ...faults }),
    carrier_b: createCarrierBSandboxServer({
      core: cores.carrier_b,
      credentials: options.credentials.carrier_b,
      ...faults,
    }),
  };
  const closeAll = (): Promise<void> =>
    Promise.all([servers['321'].close(), servers.carrier_b.close()]).then(() => undefined);

  let urls: Record<CarrierId, string>;
  try {
    urls = {
      '321': await servers['321'].listen(ports['321'], host),
      carrier_b: await servers.carrier_b.listen(ports.carrier_b, host),
    };
  } catch (error) {
    // One port may already be taken: do not leave the other server listening.
    await closeAll();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return { urls, cores, servers, close: () => (closing ??= closeAll()) };
}

/** Public, documented sandbox credentials (docs/sandbox.md); not secrets. */
export const DEFAULT_SANDBOX_CREDENTIALS: SandboxCredentials = {
  '321': { apiKey: 'sandbox-321-key' },
  carrier_b: { accountId: 'sandbox-b-account', apiSecret: 'sandbox-b-secret' },
};

export const DEFAULT_SANDBOX_PORTS: Record<CarrierId, number> = { '321': 4321, carrier_b: 4322 };

/**
 * Options for `npm run sandbox`: SANDBOX_HOST, SANDBOX_321_PORT, SANDBOX_CARRIER_B_PORT,
 * CARRIER_321_API_KEY, CARRIER_B_ACCOUNT_ID, CARRIER_B_API_SECRET, SANDBOX_MDN_POOL_SIZE and SANDBOX_FAULT_*.
 * Unset or empty variables take the documented defaults.
 */
export function sandboxOptionsFromEnvironment(env: NodeJS.ProcessEnv = process.env): Required<SandboxCarriersOptions> {
  const text = (name: string, fallback: string): string => env[name] || fallback;
  const wholeNumber = (name: string, fallback: number, max: number, kind: string): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) > max)
      throw new RangeError(`Invalid ${name}: must be ${kind} from 0 to ${max}`);
    return Number(raw);
  };
  const port = (name: string, fallback: number) => wholeNumber(name, fallback, 65_535, 'a port number');
  const defaults = DEFAULT_SANDBOX_CREDENTIALS;
  return {
    host: text('SANDBOX_HOST', '127.0.0.1'),
    ports: {
      '321': port('SANDBOX_321_PORT', DEFAULT_SANDBOX_PORTS['321']),
      carrier_b: port('SANDBOX_CARRIER_B_PORT', DEFAULT_SANDBOX_PORTS.carrier_b),
    },
    credentials: {
      '321': { apiKey: text('CARRIER_321_API_KEY', defaults['321'].apiKey) },
      carrier_b: {
        accountId: text('CARRIER_B_ACCOUNT_ID', defaults.carrier_b.accountId),
        apiSecret: text('CARRIER_B_API_SECRET', defaults.carrier_b.apiSecret),
      },
    },
    faults: faultsFromEnvironment(env),
    mdnPoolSize: wholeNumber('SANDBOX_MDN_POOL_SIZE', DEFAULT_MDN_POOL_SIZE, MAX_MDN_POOL_SIZE, 'a whole number'),
  };
}
