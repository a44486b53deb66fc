// The failure body shared by the query endpoints. The spec gives queries no transaction id,
// so the pipeline's default failure envelope (which carries one) does not fit them.

import type { CarrierRejection } from '../../carriers/errors.js';

/** HTTP 400, `status: failure`, the carrier message ending with the code; `extra` adds what the spec names (mdn, sim, errors). */
export function queryFailure<E extends object>(rejection: CarrierRejection, extra: E) {
  return { status: 400, body: { status: 'failure' as const, ...extra, message: rejection.message } };
}
