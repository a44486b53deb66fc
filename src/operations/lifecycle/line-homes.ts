// Keeps the line registry (where each line lives) in step with lifecycle operations, so that
// later operations on the line are routed to the carrier that now holds it.

import { LINE_STATUSES, type LineStatus } from '../../carriers/types.js';
import type { CarrierContext } from '../../pipeline/operation.js';

const isLineStatus = (value: string | undefined): value is LineStatus => (LINE_STATUSES as readonly string[]).includes(value ?? '');

/** The registry's status of the line, when known and meaningful. */
export async function knownStatus(context: CarrierContext<unknown>, mdn: string): Promise<LineStatus | undefined> {
  const status = (await context.request.lineHomes.load(mdn))?.status;
  return isLineStatus(status) ? status : undefined;
}

/**
 * Records the line at the carrier that just answered for it. A line the gateway did not know
 * yet (activated elsewhere) is learned here; its status is kept unless `status` says otherwise.
 */
export async function rememberLine(context: CarrierContext<unknown>, line: { mdn: string; sim: string; status?: LineStatus }): Promise<void> {
  const status = line.status ?? (await knownStatus(context, line.mdn)) ?? 'ACTIVE';
  await context.services.lines.record({ mdn: line.mdn, sim: line.sim, carrier: context.carrierId, status });
}
