// Which carrier an admitted call goes to: the plan's carrier when the plan names one, else the
// carrier that holds the line or SIM the call names, else the caller's preference, else the
// default carrier of the runtime settings.

import type { CarrierId } from '../carriers/types.js';
import type { PlanRecord, UserRecord } from '../directory/types.js';
import type { RegisteredOperation } from './operation.js';
import type { RequestContext } from './request-context.js';
import { nonEmptyText } from '../lib/text.js';

const text = nonEmptyText;

export async function resolveCarrier(
  operation: RegisteredOperation,
  input: Record<string, unknown>,
  request: RequestContext,
  user: UserRecord,
  plan: PlanRecord | null,
  defaultCarrier: CarrierId,
): Promise<CarrierId> {
  const fallback = user.carrierPreference ?? defaultCarrier;
  switch (operation.routing) {
    case 'plan': {
      // A plan bound to a carrier decides (spec). A carrier-neutral plan on an existing line
      // (plan change, purchase, reconnect) follows the line to the carrier that holds it.
      if (plan?.carrier) return plan.carrier;
      const mdn = text(input[operation.lineField]);
      const home = mdn ? await request.lineHomes.load(mdn) : null;
      return home?.carrier ?? fallback;
    }
    case 'line': {
      const mdn = text(input[operation.lineField]);
      const home = mdn ? await request.lineHomes.load(mdn) : null;
      return home?.carrier ?? fallback;
    }
    case 'sim': {
      const sim = text(input.sim);
      const home = sim ? await request.simHomes.load(sim) : null;
      return home?.carrier ?? fallback;
    }
    default:
      return fallback;
  }
}
