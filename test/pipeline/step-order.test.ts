// The pipeline's step order (docs/architecture.md, "One pipeline"): auth → superuser →
// maintenance → rate limit → validation → plan authorization → line ownership → carrier
// resolution → transaction id → handler. For each adjacent pair, a call that fails both checks
// gets the earlier refusal. A probe operation that has every check runs through the real
// executeOperation with a real gateway's services (sandbox carriers, SQLite).

import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CarrierId } from '../../src/carriers/types.js';
import type { UserRecord } from '../../src/directory/types.js';
import { defineOperation } from '../../src/operations/define.js';
import {
  CarrierDisabledError,
  DuplicateTransactionError,
  ForbiddenError,
  LineNotOwnedError,
  MaintenanceError,
  NotSupportedError,
  PlanNotAuthorizedError,
  RateLimitedError,
  UnauthenticatedError,
  ValidationFailedError,
} from '../../src/errors/gateway-errors.js';
import { executeOperation, givenInput } from '../../src/pipeline/execute.js';
import type { RegisteredOperation } from '../../src/pipeline/operation.js';
import { createRequestContext, type RequestContext } from '../../src/pipeline/request-context.js';
import { freshSim } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';

let handled = 0;

const RATE_LIMIT = { max: 5, window: 'minute' } as const;

/** An operation with every check of the pipeline: superuser-only or not; a plan field, or extended (an operation is one or the other). */
function probe(options: { superuserOnly?: boolean; extended?: boolean } = {}): RegisteredOperation {
  const common = {
    name: `pipelineProbe${options.superuserOnly ? 'Admin' : ''}${options.extended ? 'Extended' : ''}`,
    kind: 'mutation' as const,
    description: 'Exercises every step of the pipeline',
    input: z.object({ mdn: z.string().regex(/^\d{10}$/), planId: z.string(), transactionId: z.string().optional() }),
    output: z.object({ status: z.string() }),
    rateLimit: RATE_LIMIT,
    superuserOnly: options.superuserOnly ?? false,
    routing: 'line' as const,
    transactionPrefix: 'PROBE_',
    handle: async () => {
      handled += 1;
      return { status: 200, body: { status: 'success' } };
    },
  };
  return options.extended
    ? defineOperation({ ...common, extended: true })
    : defineOperation({ ...common, planField: 'planId' });
}

const plain = probe();

/** A user authorized for plan OK (not for plan OTHER), and their request context. */
async function caller(options: { superuser?: boolean } = {}): Promise<{ user: UserRecord; request: RequestContext }> {
  const { user, token } = await gateway.user({ plans: ['OK'], superuser: options.superuser });
  return { user, request: await createRequestContext(gateway.app.services, randomUUID(), `Bearer ${token}`) };
}

/** A line the registry records on `carrier`, owned by `owner` (nobody by default). */
async function line(carrier: CarrierId = '321', owner?: string): Promise<string> {
  const mdn = `32${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await gateway.app.services.lines.record({ mdn, sim: freshSim(), carrier, owner });
  return mdn;
}

const run = (operation: RegisteredOperation, input: Record<string, unknown>, request: RequestContext) =>
  executeOperation(operation, givenInput(input), request);
async function exhaust(user: UserRecord, operation: RegisteredOperation): Promise<void> {
  for (let call = 0; call < RATE_LIMIT.max; call++)
    await gateway.app.services.rateLimiter.consume(user.id, operation.name, RATE_LIMIT);
}
const setting = (key: 'maintenance_mode' | 'carriers_enabled', value: unknown) =>
  gateway.app.services.settings.update(key, JSON.stringify(value));

const gateway = useGateway();
beforeAll(async () => {
  await gateway.plan({ planId: 'OTHER', name: 'Other', carrierPlanId: 'SOC-OTHER' });
});
afterEach(async () => {
  await setting('maintenance_mode', false);
  await setting('carriers_enabled', { '321': true, carrier_b: true });
});

describe('each step refuses before the next one looks', () => {
  it('auth before superuser: an anonymous call to a superuser-only operation is 401, not 403', async () => {
    const anonymous = await createRequestContext(gateway.app.services, randomUUID(), null);
    await expect(run(probe({ superuserOnly: true }), {}, anonymous)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('superuser before maintenance: a user calling a superuser-only operation in maintenance is 403, not 503', async () => {
    const { request } = await caller();
    await setting('maintenance_mode', true);
    await expect(run(probe({ superuserOnly: true }), {}, request)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('maintenance before rate limit: a caller over the limit in maintenance is 503, not 429', async () => {
    const { user, request } = await caller();
    await exhaust(user, plain);
    await setting('maintenance_mode', true);
    await expect(run(plain, { mdn: await line(), planId: 'OK' }, request)).rejects.toBeInstanceOf(MaintenanceError);
  });

  it('rate limit before validation: an invalid call over the limit is 429, not 422', async () => {
    const { user, request } = await caller();
    await exhaust(user, plain);
    await expect(run(plain, { mdn: 'not-a-number' }, request)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('validation before plan authorization: an invalid call naming a plan not authorized is 422, not 403', async () => {
    const { request } = await caller();
    await expect(run(plain, { mdn: 'not-a-number', planId: 'OTHER' }, request)).rejects.toBeInstanceOf(
      ValidationFailedError,
    );
  });

  it("plan authorization before ownership: another user's line with a plan not authorized is PLAN_NOT_AUTHORIZED", async () => {
    const { user: owner } = await caller();
    const { request } = await caller();
    await expect(run(plain, { mdn: await line('321', owner.id), planId: 'OTHER' }, request)).rejects.toBeInstanceOf(
      PlanNotAuthorizedError,
    );
  });

  it("ownership before carrier resolution: another user's line on a disabled carrier is refused as not owned, not 503", async () => {
    const { user: owner } = await caller();
    const { request } = await caller();
    const mdn = await line('carrier_b', owner.id);
    await setting('carriers_enabled', { carrier_b: false });
    await expect(run(plain, { mdn, planId: 'OK' }, request)).rejects.toBeInstanceOf(LineNotOwnedError);
  });

  it("ownership before carrier resolution: another user's line on a carrier without extended operations is not owned, not 501", async () => {
    const { user: owner } = await caller();
    const { request } = await caller();
    await expect(
      run(probe({ extended: true }), { mdn: await line('carrier_b', owner.id), planId: 'OK' }, request),
    ).rejects.toBeInstanceOf(LineNotOwnedError);
  });

  it('carrier resolution before the transaction id: a taken id on a disabled carrier is 503, not 409, and a free id stays free', async () => {
    const { request } = await caller();
    const taken = `TAKEN_${randomUUID()}`;
    await gateway.app.services.transactions.reserve({
      id: taken,
      userId: request.user!.id,
      operation: plain.name,
      carrier: '321',
      request: {},
    });
    const free = `FREE_${randomUUID()}`;
    const mdn = await line('carrier_b');
    await setting('carriers_enabled', { carrier_b: false });
    await expect(run(plain, { mdn, planId: 'OK', transactionId: taken }, request)).rejects.toBeInstanceOf(
      CarrierDisabledError,
    );
    await expect(
      run(probe({ extended: true }), { mdn, planId: 'OK', transactionId: free }, request),
    ).rejects.toBeInstanceOf(CarrierDisabledError);
    await setting('carriers_enabled', { carrier_b: true });
    await expect(
      run(probe({ extended: true }), { mdn, planId: 'OK', transactionId: free }, request),
    ).rejects.toBeInstanceOf(NotSupportedError);
    expect(await gateway.app.services.transactions.find(free)).toBeNull();
  });

  it('transaction id before the handler: a taken id is 409 and the handler does not run', async () => {
    const { request } = await caller();
    const id = `ONCE_${randomUUID()}`;
    const before = handled;
    await expect(run(plain, { mdn: await line(), planId: 'OK', transactionId: id }, request)).resolves.toMatchObject({
      status: 200,
    });
    expect(handled).toBe(before + 1);
    const { request: again } = await caller();
    await expect(run(plain, { mdn: await line(), planId: 'OK', transactionId: id }, again)).rejects.toBeInstanceOf(
      DuplicateTransactionError,
    );
    expect(handled).toBe(before + 1);
  });
});
