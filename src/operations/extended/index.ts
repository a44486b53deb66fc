// Carrier-specific extended operations (carrier 321 only; 501 elsewhere), one per file.

import { getAccount } from './account.js';
import { getActivePlan } from './active-plan.js';
import { listAvailablePlans } from './available-plans.js';
import { changeImei } from './change-imei.js';
import { getCustomerImpactingEvents } from './customer-impacting-events.js';
import { getDeviceUnlockStatus } from './device-unlock-status.js';
import { getImeiDetails } from './imei-details.js';
import { managePhoneList } from './manage-phone-list.js';
import { getNumberGroups } from './number-groups.js';
import { getPoolUsage } from './pool-usage.js';
import { getProducts } from './products.js';
import { sendSms } from './send-sms.js';
import { setLineLabel } from './set-line-label.js';
import { validateAddress } from './validate-address.js';

export {
  changeImei,
  getAccount,
  getActivePlan,
  getCustomerImpactingEvents,
  getDeviceUnlockStatus,
  getImeiDetails,
  getNumberGroups,
  getPoolUsage,
  getProducts,
  listAvailablePlans,
  managePhoneList,
  sendSms,
  setLineLabel,
  validateAddress,
};

export const extendedOperations = [
  listAvailablePlans,
  validateAddress,
  getDeviceUnlockStatus,
  getAccount,
  getPoolUsage,
  getNumberGroups,
  getActivePlan,
  getImeiDetails,
  getProducts,
  getCustomerImpactingEvents,
  sendSms,
  managePhoneList,
  setLineLabel,
  changeImei,
];
