// The readiness probe of a carrier: one cheap authenticated read, sent once (no retries),
// classified by how the carrier answered. A refusal still proves the carrier is up and takes
// our credentials; only 401, a 5xx or no answer at all make it not ready.

import type { CarrierHttpResponse } from './http-client.js';

export type CarrierReadiness = 'ok' | 'bad credentials' | 'unreachable' | 'missing credentials';

/** How an answer to the probe reads. */
export function readinessOf(status: number): CarrierReadiness {
  if (status === 401) return 'bad credentials';
  if (status >= 500) return 'unreachable';
  return 'ok';
}

/** Sends the probe; any transport fault (refused, timed out, garbage) is `unreachable`. */
export async function probeCarrier(send: () => Promise<CarrierHttpResponse>): Promise<CarrierReadiness> {
  try {
    return readinessOf((await send()).status);
  } catch {
    return 'unreachable';
  }
}
