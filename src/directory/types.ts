// The gateway's own records of users and plans, as the rest of the code sees them.

import type { CarrierId } from '../carriers/types.js';
import { GatewayError } from '../errors/gateway-errors.js';

export interface UserRecord {
  id: string;
  name: string;
  superuser: boolean;
  carrierPreference: CarrierId | null;
  active: boolean;
}

export interface PlanRecord {
  /** The identifier callers send as plan_id. */
  planId: string;
  name: string;
  carrierPlanId: string;
  carrier: CarrierId | null;
  description: string;
  price: number;
  wfc: boolean;
}

export interface PlanInput {
  planId: string;
  name: string;
  carrierPlanId: string;
  carrier?: CarrierId | null;
  description?: string;
  price?: number;
  wfc?: boolean;
}

/** Why a management request cannot be carried out (an unknown user, plan or token is NotFoundError). */
const REFUSALS = {
  /** A name or plan_id already taken, or a user whose state forbids it (deactivated). */
  conflict: { status: 409, code: 'CONFLICT' },
  /** A value the request itself got wrong (a token lifetime, a string that is not a token). */
  invalid: { status: 422, code: 'BAD_USER_INPUT' },
} as const;

type DirectoryRefusal = keyof typeof REFUSALS;

/** A management request that cannot be carried out (a duplicate plan, a bad token lifetime…). */
export class DirectoryError extends GatewayError {
  override readonly name = 'DirectoryError';
  readonly status: number;
  readonly code: string;
  constructor(refusal: DirectoryRefusal, message: string) {
    super(message);
    ({ status: this.status, code: this.code } = REFUSALS[refusal]);
  }
  override restBody() {
    return { detail: this.message };
  }
}
