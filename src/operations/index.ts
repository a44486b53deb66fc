// The operation table: every operation of the service, grouped like the spec. The GraphQL
// schema and the REST routes are both derived from this list; code outside src/operations/
// that needs one operation looks it up here by its field name (`operationNamed`).

import { me } from './account/me.js';
import { transaction } from './account/transaction.js';
import { activationOperations } from './activation/index.js';
import { carrierStatuses, setting, settings, updateSetting } from './admin/settings.js';
import { abandonTransaction } from './admin/abandon-transaction.js';
import { assignLineOwner } from './admin/line-owner.js';
import { extendedOperations } from './extended/index.js';
import { featureOperations } from './features/index.js';
import { historyOperations } from './history/index.js';
import { lifecycleOperations } from './lifecycle/index.js';
import { authorizePlans, createUser, deauthorizePlans, users, updateUser } from './management/users.js';
import { createPlan, plans, updatePlan } from './management/plans.js';
import { issueToken, revokeToken } from './management/tokens.js';
import { planOperations } from './plans/index.js';
import { queryOperations } from './queries/index.js';
import { webhookOperations } from './webhooks/index.js';

export const adminOperations = [settings, setting, updateSetting, carrierStatuses, assignLineOwner, abandonTransaction];
export const accountOperations = [me, transaction];
export const managementOperations = [
  users,
  createUser,
  updateUser,
  authorizePlans,
  deauthorizePlans,
  plans,
  createPlan,
  updatePlan,
  issueToken,
  revokeToken,
];

export const operations = [
  ...featureOperations,
  ...queryOperations,
  ...historyOperations,
  ...lifecycleOperations,
  ...planOperations,
  ...activationOperations,
  ...adminOperations,
  ...extendedOperations,
  ...accountOperations,
  ...managementOperations,
  ...webhookOperations,
];

/** The field name of every operation of the table. */
export type OperationName = (typeof operations)[number]['name'];

type OperationNamed<N extends OperationName> = Extract<(typeof operations)[number], { name: N }>;

const byName = new Map<string, (typeof operations)[number]>(operations.map((operation) => [operation.name, operation]));

/** The table's row for a field name; the compiler refuses a name the table does not have. */
export function operationNamed<N extends OperationName>(name: N): OperationNamed<N> {
  return byName.get(name) as OperationNamed<N>;
}
