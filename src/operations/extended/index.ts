// Carrier-specific extended operations (carrier 321 only; 501 elsewhere), one per file.

import { account } from './account.js';
import { activePlan } from './active-plan.js';
import { availablePlans } from './available-plans.js';
import { changeImei } from './change-imei.js';
import { customerImpactingEvents } from './customer-impacting-events.js';
import { deviceUnlockStatus } from './device-unlock-status.js';
import { imeiDetails } from './imei-details.js';
import { managePhoneList } from './manage-phone-list.js';
import { numberGroups } from './number-groups.js';
import { poolUsage } from './pool-usage.js';
import { products } from './products.js';
import { sendSms } from './send-sms.js';
import { setLineLabel } from './set-line-label.js';
import { validateAddress } from './validate-address.js';

export {
  changeImei,
  account,
  activePlan,
  customerImpactingEvents,
  deviceUnlockStatus,
  imeiDetails,
  numberGroups,
  poolUsage,
  products,
  availablePlans,
  managePhoneList,
  sendSms,
  setLineLabel,
  validateAddress,
};

export const extendedOperations = [
  availablePlans,
  validateAddress,
  deviceUnlockStatus,
  account,
  poolUsage,
  numberGroups,
  activePlan,
  imeiDetails,
  products,
  customerImpactingEvents,
  sendSms,
  managePhoneList,
  setLineLabel,
  changeImei,
];
