// The one API for what a carrier write does to the line registry (where each line lives, its
// status and owner), so that later operations on the line reach the carrier that holds it and
// ownership stays right. Handlers call these instead of the registry.

import { LINE_STATUSES, type LineStatus } from '../carriers/types.js';
import type { CarrierContext } from '../pipeline/operation.js';

const isLineStatus = (value: string | undefined): value is LineStatus =>
  (LINE_STATUSES as readonly string[]).includes(value ?? '');

/** The registry's status of the line, when known and meaningful. */
async function knownStatus(context: CarrierContext<unknown>, mdn: string): Promise<LineStatus | undefined> {
  const status = (await context.request.lineHomes.load(mdn))?.status;
  return isLineStatus(status) ? status : undefined;
}

/**
 * A new line, activated by the caller at this carrier: the line is the caller's (the only place
 * a line gets its owner from a request).
 */
export async function recordActivation(
  context: CarrierContext<unknown>,
  line: { mdn: string; sim: string },
): Promise<void> {
  await context.services.lines.record({
    mdn: line.mdn,
    sim: line.sim,
    carrier: context.carrierId,
    owner: context.user.id,
  });
}

/**
 * The line answered at this carrier (SIM swap, reconnection, disconnection). A line the gateway
 * did not know yet (activated elsewhere) is learned here; its status is kept unless `status`
 * says otherwise.
 */
export async function rememberLine(
  context: CarrierContext<unknown>,
  line: { mdn: string; sim: string; status?: LineStatus },
): Promise<void> {
  const status = line.status ?? (await knownStatus(context, line.mdn)) ?? 'ACTIVE';
  await context.services.lines.record({ mdn: line.mdn, sim: line.sim, carrier: context.carrierId, status });
}

/** The line's status changed at its carrier (suspension, restoration). */
export async function setLineStatus(context: CarrierContext<unknown>, mdn: string, status: LineStatus): Promise<void> {
  await context.services.lines.setStatus(mdn, status);
}

/** An MDN swap: the line moves to its new number with its owner, and a suspended line stays suspended. */
export async function renumberLine(
  context: CarrierContext<unknown>,
  swap: { mdn: string; newMdn: string; sim: string },
): Promise<void> {
  // Read before `renumber`, which records the new number as ACTIVE.
  const status = await knownStatus(context, swap.mdn);
  await context.services.lines.renumber(swap.mdn, swap.newMdn, swap.sim, context.carrierId);
  if (status && status !== 'ACTIVE') await context.services.lines.setStatus(swap.newMdn, status);
}
