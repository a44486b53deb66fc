// The SOCs a line carries: its plan, its active add-ons and its feature SOCs, as shown by
// the service profile, the network status and the extended products query.

import type { ServiceCode } from '../../carriers/types.js';
import type { LineRecord } from './state.js';
import { activePurchases } from './subscriptions.js';
import { carrierDate } from './time-format.js';

/** Feature SOCs only (no plans). */
export function featureCodes(line: LineRecord): ServiceCode[] {
  const since = carrierDate(line.activatedAt);
  const codes: ServiceCode[] = [
    { code: 'VOLTE', effectiveDate: since },
    { code: 'VMBOX', effectiveDate: since },
  ];
  if (line.wfc.enabled && line.wfc.since !== null)
    codes.push({ code: 'WFC911', effectiveDate: carrierDate(line.wfc.since) });
  if (line.hotline) codes.push({ code: 'HOTLINE', effectiveDate: carrierDate(line.hotline.since) });
  return codes;
}

export function serviceCodes(line: LineRecord): ServiceCode[] {
  return [
    { code: line.plan.carrierPlanId, effectiveDate: carrierDate(line.plan.effectiveAt) },
    ...activePurchases(line).map((purchase) => ({
      code: purchase.planCode,
      effectiveDate: carrierDate(purchase.validFrom),
    })),
    ...featureCodes(line),
  ];
}
