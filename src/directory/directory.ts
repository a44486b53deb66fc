// Users, plans and which plans each user may use, with per-replica caching so that the
// request path rarely touches the database.

import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { quote } from '../lib/quote.js';
import { TtlCache } from '../lib/ttl-cache.js';
import type { CarrierId } from '../carriers/types.js';
import { DirectoryError, type PlanInput, type PlanRecord, type UserRecord } from './types.js';

type UserRow = { id: string; name: string; superuser: boolean; carrierPreference: string | null; active: boolean };
type PlanRow = {
  planId: string;
  name: string;
  carrierPlanId: string;
  carrier: string | null;
  description: string;
  price: number;
  wfc: boolean;
};

const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  superuser: row.superuser,
  carrierPreference: row.carrierPreference as CarrierId | null,
  active: row.active,
});
const toPlan = (row: PlanRow): PlanRecord => ({
  planId: row.planId,
  name: row.name,
  carrierPlanId: row.carrierPlanId,
  carrier: row.carrier as CarrierId | null,
  description: row.description,
  price: row.price,
  wfc: row.wfc,
});

export class Directory {
  private readonly users: TtlCache<string, UserRecord | null>;
  private readonly plans: TtlCache<string, PlanRecord | null>;
  private readonly authorizations: TtlCache<string, ReadonlySet<string>>;
  private readonly authorizedPlanLists: TtlCache<string, PlanRecord[]>;

  constructor(
    private readonly db: Database,
    cacheTtlMs: number,
  ) {
    this.users = new TtlCache(cacheTtlMs);
    this.plans = new TtlCache(cacheTtlMs);
    this.authorizations = new TtlCache(cacheTtlMs);
    this.authorizedPlanLists = new TtlCache(cacheTtlMs);
  }

  /** Caches a user row read elsewhere (the authenticator reads it with the token). */
  prime(row: UserRow): void {
    this.users.set(row.id, toUser(row));
  }

  user(id: string): Promise<UserRecord | null> {
    return this.users.get(id, async () => {
      const row = await this.db.user.findUnique({ where: { id } });
      return row ? toUser(row) : null;
    });
  }

  plan(planId: string): Promise<PlanRecord | null> {
    return this.plans.get(planId, async () => {
      const row = await this.db.plan.findUnique({ where: { planId } });
      return row ? toPlan(row) : null;
    });
  }

  /** The plan_ids the user is authorized for. */
  authorizedPlanIds(userId: string): Promise<ReadonlySet<string>> {
    return this.authorizations.get(userId, async () => {
      const rows = await this.db.userPlan.findMany({
        where: { userId },
        select: { plan: { select: { planId: true } } },
      });
      return new Set(rows.map((row) => row.plan.planId));
    });
  }

  authorizedPlans(userId: string): Promise<PlanRecord[]> {
    return this.authorizedPlanLists.get(userId, async () => {
      const rows = await this.db.userPlan.findMany({
        where: { userId },
        include: { plan: true },
        orderBy: { plan: { planId: 'asc' } },
      });
      return rows.map((row) => toPlan(row.plan));
    });
  }

  async userByName(name: string): Promise<UserRecord> {
    const row = await this.db.user.findUnique({ where: { name } });
    if (!row) throw new DirectoryError(`No user named ${JSON.stringify(quote(name))}`);
    return toUser(row);
  }

  async listUsers(): Promise<UserRecord[]> {
    return (await this.db.user.findMany({ orderBy: { name: 'asc' } })).map(toUser);
  }

  async listPlans(): Promise<PlanRecord[]> {
    return (await this.db.plan.findMany({ orderBy: { planId: 'asc' } })).map(toPlan);
  }

  async createUser(input: {
    name: string;
    superuser?: boolean;
    carrierPreference?: CarrierId | null;
  }): Promise<UserRecord> {
    try {
      const row = await this.db.user.create({
        data: {
          id: randomUUID(),
          name: input.name,
          superuser: input.superuser ?? false,
          carrierPreference: input.carrierPreference ?? null,
        },
      });
      return toUser(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DirectoryError(`A user named ${JSON.stringify(quote(input.name))} already exists`);
      throw error;
    }
  }

  async updateUser(
    name: string,
    changes: { superuser?: boolean; carrierPreference?: CarrierId | null; active?: boolean },
  ): Promise<UserRecord> {
    const user = await this.userByName(name);
    const row = await this.db.user.update({ where: { id: user.id }, data: changes });
    this.users.delete(user.id);
    return toUser(row);
  }

  async createPlan(input: PlanInput): Promise<PlanRecord> {
    try {
      const row = await this.db.plan.create({
        data: {
          id: randomUUID(),
          planId: input.planId,
          name: input.name,
          carrierPlanId: input.carrierPlanId,
          carrier: input.carrier ?? null,
          description: input.description ?? '',
          price: input.price ?? 0,
          wfc: input.wfc ?? false,
        },
      });
      this.plans.delete(input.planId);
      return toPlan(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DirectoryError(`A plan with plan_id ${JSON.stringify(quote(input.planId))} already exists`);
      throw error;
    }
  }

  async updatePlan(planId: string, changes: Partial<Omit<PlanInput, 'planId'>>): Promise<PlanRecord> {
    const existing = await this.db.plan.findUnique({ where: { planId } });
    if (!existing) throw new DirectoryError(`No plan with plan_id ${JSON.stringify(quote(planId))}`);
    const row = await this.db.plan.update({ where: { planId }, data: changes });
    this.plans.delete(planId);
    // Plan lists embed plan details; a plan change is rare enough to drop them all.
    this.authorizedPlanLists.clear();
    return toPlan(row);
  }

  /** Authorizes the user for each plan; already-authorized plans are left as they are. */
  async authorize(userName: string, planIds: string[]): Promise<PlanRecord[]> {
    const user = await this.userByName(userName);
    const plans = await this.db.plan.findMany({ where: { planId: { in: planIds } } });
    const missing = planIds.filter((planId) => !plans.some((plan) => plan.planId === planId));
    if (missing.length > 0)
      throw new DirectoryError(
        `No plan with plan_id ${quote(missing.map((id) => JSON.stringify(id)).join(', '), 256)}`,
      );
    for (const plan of plans) {
      await this.db.userPlan.upsert({
        where: { userId_planId: { userId: user.id, planId: plan.id } },
        update: {},
        create: { userId: user.id, planId: plan.id },
      });
    }
    this.forgetAuthorizations(user.id);
    return this.authorizedPlans(user.id);
  }

  async deauthorize(userName: string, planIds: string[]): Promise<PlanRecord[]> {
    const user = await this.userByName(userName);
    await this.db.userPlan.deleteMany({ where: { userId: user.id, plan: { planId: { in: planIds } } } });
    this.forgetAuthorizations(user.id);
    return this.authorizedPlans(user.id);
  }

  private forgetAuthorizations(userId: string): void {
    this.authorizations.delete(userId);
    this.authorizedPlanLists.delete(userId);
  }
}
