// The readiness probe of a carrier: one cheap authenticated read, sent once (no retries), whose
// answer is read exactly as the adapter reads a real call's. A refusal in the carrier's own
// error format still proves the carrier is up and takes our credentials; 401 is bad
// credentials; no answer, a 5xx or an answer that is not the carrier's wire format (a wrong
// URL answering 404, a proxy's error page) make it unreachable: every real call would fail.

import { CarrierRejection } from './errors.js';
import type { CarrierHttpResponse } from './http-client.js';

export type CarrierReadiness = 'ok' | 'bad credentials' | 'unreachable' | 'missing credentials';

/**
 * Sends the probe and reads its answer with `read`, the adapter's own interpretation (it
 * returns the data, throws a CarrierRejection for a refusal, or a CarrierFault).
 */
export async function probeCarrier(
  send: () => Promise<CarrierHttpResponse>,
  read: (response: CarrierHttpResponse) => unknown,
): Promise<CarrierReadiness> {
  let response: CarrierHttpResponse;
  try {
    response = await send();
  } catch {
    return 'unreachable';
  }
  if (response.status === 401) return 'bad credentials';
  try {
    read(response);
    return 'ok';
  } catch (error) {
    return error instanceof CarrierRejection ? 'ok' : 'unreachable';
  }
}
