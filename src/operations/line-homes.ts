// The one API for what a carrier write does to the line registry (where each line lives, its
// status and owner), so that later operations on the line reach the carrier that holds it and
// ownership stays right. Handlers call these instead of the registry.

import type { LineStatus } from '../carriers/types.js';
import type { CarrierContext } from '../pipeline/operation.js';

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
 * says otherwise: read in the same statement as the write, not before the carrier call, so a
 * suspension that completed meanwhile is not undone.
 */
export async function rememberLine(
  context: CarrierContext<unknown>,
  line: { mdn: string; sim: string; status?: LineStatus },
): Promise<void> {
  await context.services.lines.record({
    mdn: line.mdn,
    sim: line.sim,
    carrier: context.carrierId,
    status: line.status,
  });
}

/** The line's status changed at its carrier (suspension, restoration). */
export async function setLineStatus(context: CarrierContext<unknown>, mdn: string, status: LineStatus): Promise<void> {
  await context.services.lines.setStatus(mdn, status);
}

/** An MDN swap: the line moves to its new number with its owner and status (read as it moves). */
export async function renumberLine(
  context: CarrierContext<unknown>,
  swap: { mdn: string; newMdn: string; sim: string },
): Promise<void> {
  await context.services.lines.renumber(swap.mdn, swap.newMdn, swap.sim, context.carrierId);
}
