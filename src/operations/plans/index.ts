// Plan management: change, purchase, cancel, billing code.

import type { RegisteredOperation } from '../define.js';
import { cancelPurchase } from './cancel-purchase.js';
import { changeBillingCode } from './change-billing-code.js';
import { changePlan } from './change-plan.js';
import { purchasePlan } from './purchase-plan.js';

export const planOperations: RegisteredOperation[] = [changePlan, purchasePlan, cancelPurchase, changeBillingCode];
