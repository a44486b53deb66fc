// Users, plans and which plans each user may use, cached per replica until a change is
// announced (src/db/cache-invalidation.ts), so that the request path does not touch the database.

import { randomUUID } from 'node:crypto';
import type { CacheChange, CacheInvalidation } from '../db/cache-invalidation.js';
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { quote } from '../lib/quote.js';
import { TtlCache } from '../lib/ttl-cache.js';
import type { CarrierId } from '../carriers/types.js';
import { NotFoundError } from '../errors/gateway-errors.js';
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
    private readonly invalidation: CacheInvalidation,
  ) {
    this.users = new TtlCache(invalidation);
    this.plans = new TtlCache(invalidation);
    this.authorizations = new TtlCache(invalidation);
    this.authorizedPlanLists = new TtlCache(invalidation);
    invalidation.subscribe((change) => this.drop(change));
  }

  /**
   * For a user row read elsewhere (the authenticator reads it with the token): call before the
   * read; the function returned caches the row unless a change to users came in between.
   */
  userPrimer(): (row: UserRow) => void {
    const generation = this.users.generation();
    return (row) => this.users.set(row.id, toUser(row), generation);
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
    if (!row) throw new NotFoundError(`No user named ${JSON.stringify(quote(name))}`);
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
        throw new DirectoryError('conflict', `A user named ${JSON.stringify(quote(input.name))} already exists`);
      throw error;
    }
  }

  async updateUser(
    name: string,
    changes: { superuser?: boolean; carrierPreference?: CarrierId | null; active?: boolean },
  ): Promise<UserRecord> {
    const user = await this.userByName(name);
    const [row] = await this.invalidation.write(
      [{ kind: 'user', id: user.id }],
      [this.db.user.update({ where: { id: user.id }, data: changes })],
    );
    return toUser(row);
  }

  async createPlan(input: PlanInput): Promise<PlanRecord> {
    try {
      // A lookup of this plan_id may have cached its absence.
      const [row] = await this.invalidation.write(
        [{ kind: 'plan', planId: input.planId }],
        [
          this.db.plan.create({
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
          }),
        ],
      );
      return toPlan(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DirectoryError(
          'conflict',
          `A plan with plan_id ${JSON.stringify(quote(input.planId))} already exists`,
        );
      throw error;
    }
  }

  async updatePlan(planId: string, changes: Partial<Omit<PlanInput, 'planId'>>): Promise<PlanRecord> {
    const existing = await this.db.plan.findUnique({ where: { planId } });
    if (!existing) throw new NotFoundError(`No plan with plan_id ${JSON.stringify(quote(planId))}`);
    const [row] = await this.invalidation.write(
      [{ kind: 'plan', planId }],
      [this.db.plan.update({ where: { planId }, data: changes })],
    );
    return toPlan(row);
  }

  /** Authorizes the user for each plan; already-authorized plans are left as they are. */
  async authorize(userName: string, planIds: string[]): Promise<PlanRecord[]> {
    const user = await this.userByName(userName);
    const plans = await this.db.plan.findMany({ where: { planId: { in: planIds } } });
    const missing = planIds.filter((planId) => !plans.some((plan) => plan.planId === planId));
    if (missing.length > 0)
      throw new NotFoundError(`No plan with plan_id ${quote(missing.map((id) => JSON.stringify(id)).join(', '), 256)}`);
    await this.invalidation.write(
      [{ kind: 'authorizations', userId: user.id }],
      plans.map((plan) =>
        this.db.userPlan.upsert({
          where: { userId_planId: { userId: user.id, planId: plan.id } },
          update: {},
          create: { userId: user.id, planId: plan.id },
        }),
      ),
    );
    return this.authorizedPlans(user.id);
  }

  async deauthorize(userName: string, planIds: string[]): Promise<PlanRecord[]> {
    const user = await this.userByName(userName);
    await this.invalidation.write(
      [{ kind: 'authorizations', userId: user.id }],
      [this.db.userPlan.deleteMany({ where: { userId: user.id, plan: { planId: { in: planIds } } } })],
    );
    return this.authorizedPlans(user.id);
  }

  private drop(change: CacheChange): void {
    switch (change.kind) {
      case 'user':
        return this.users.delete(change.id);
      case 'plan':
        this.plans.delete(change.planId);
        // Plan lists embed plan details; a plan change is rare enough to drop them all.
        return this.authorizedPlanLists.clear();
      case 'authorizations':
        this.authorizations.delete(change.userId);
        return this.authorizedPlanLists.delete(change.userId);
      case 'everything':
        for (const cache of [this.users, this.plans, this.authorizations, this.authorizedPlanLists]) cache.clear();
    }
  }
}
