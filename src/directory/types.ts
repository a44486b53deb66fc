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

/** A management request that cannot be carried out (unknown user, duplicate plan…). */
export class DirectoryError extends GatewayError {
  override readonly name = 'DirectoryError';
  readonly status = 400;
  readonly code = 'BAD_REQUEST';
  override restBody() {
    return { detail: this.message };
  }
}
