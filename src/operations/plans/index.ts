// Plan management: change, purchase, cancel, billing code.

import { cancelPurchase } from './cancel-purchase.js';
import { changeBillingCode } from './change-billing-code.js';
import { changePlan } from './change-plan.js';
import { purchasePlan } from './purchase-plan.js';

export const planOperations = [changePlan, purchasePlan, cancelPurchase, changeBillingCode];
