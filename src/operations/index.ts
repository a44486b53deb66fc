// The operation table: every operation of the service, grouped like the spec. The GraphQL
// schema and the REST routes are both derived from this list.

import type { RegisteredOperation } from './define.js';
import { me } from './account/me.js';
import { transaction } from './account/transaction.js';
import { activationOperations } from './activation/index.js';
import { carrierStatuses, getSetting, listSettings, updateSetting } from './admin/settings.js';
import { assignLineOwner } from './admin/line-owner.js';
import { extendedOperations } from './extended/index.js';
import { featureOperations } from './features/index.js';
import { lifecycleOperations } from './lifecycle/index.js';
import { authorizePlans, createUser, deauthorizePlans, listUsers, updateUser } from './management/users.js';
import { createPlan, listPlans, updatePlan } from './management/plans.js';
import { issueToken, revokeToken } from './management/tokens.js';
import { planOperations } from './plans/index.js';
import { queryOperations } from './queries/index.js';

export const adminOperations: RegisteredOperation[] = [listSettings, getSetting, updateSetting, carrierStatuses, assignLineOwner];
export const accountOperations: RegisteredOperation[] = [me, transaction];
export const managementOperations: RegisteredOperation[] = [
  listUsers,
  createUser,
  updateUser,
  authorizePlans,
  deauthorizePlans,
  listPlans,
  createPlan,
  updatePlan,
  issueToken,
  revokeToken,
];

export const operations: readonly RegisteredOperation[] = [
  ...featureOperations,
  ...queryOperations,
  ...lifecycleOperations,
  ...planOperations,
  ...activationOperations,
  ...adminOperations,
  ...extendedOperations,
  ...accountOperations,
  ...managementOperations,
];
