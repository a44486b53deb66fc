// Dry runs of the superuser mutations the gateway answers itself: each predicts from the
// directory, the settings, the tokens and the line registry (a line it has not seen is looked up
// read-only at the carriers), answers what the call would answer or refuses as it would, and
// writes nothing. For each: the dry run, what is stored afterwards (unchanged), then the real
// call with the same outcome.

import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLAnswer } from '../../support/gateway.js';
import { seedLine, seedUnknownLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway();
let admin: string;

beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
});

const REPORT = 'dryRun { wouldSucceed carrier checks { name outcome } }';

/** The mutation dry-run, then for real: the same data (but `dryRun`) or the same error code. */
async function dryThenReal(field: string, input: Record<string, unknown>, selection: string, writes = true) {
  const call = (dryRun: boolean) =>
    gateway.graphql(`mutation ($input: ${inputType(field)}!) { ${field}(input: $input) { ${selection} } }`, {
      token: admin,
      variables: { input: dryRun ? { ...input, dryRun: true } : input },
    });
  const dry = await call(true);
  const real = writes ? await call(false) : null;
  return { dry, real };
}

const inputType = (field: string) => `${field[0]!.toUpperCase()}${field.slice(1)}Input`;
const codeOf = (answer: GraphQLAnswer | null) => answer?.errors?.[0]?.extensions?.code ?? null;
const without = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(without)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'dryRun'))
      : value;

describe('plans', () => {
  it('createPlan: the plan it would create, nothing stored; a taken plan_id is the call’s refusal', async () => {
    const input = { planId: 'DRY-PLAN', name: 'Dry', carrierPlanId: 'BASIC1GB', wfc: true };
    const selection = `planId name carrierPlanId carrier description price wfc ${REPORT}`;
    const dry = await dryThenReal('createPlan', input, selection, false);
    expect(dry.dry.data?.createPlan).toMatchObject({ planId: 'DRY-PLAN', wfc: true, dryRun: { wouldSucceed: true } });
    expect(await gateway.app.services.directory.plan('DRY-PLAN')).toBeNull();
    const real = await gateway.graphql(
      `mutation ($input: CreatePlanInput!) { createPlan(input: $input) { planId name carrierPlanId carrier description price wfc } }`,
      { token: admin, variables: { input } },
    );
    expect(real.data?.createPlan).toEqual(without(dry.dry.data?.createPlan));
    const again = await dryThenReal('createPlan', input, selection);
    expect(codeOf(again.dry)).toBe('CONFLICT');
    expect(codeOf(again.dry)).toBe(codeOf(again.real));
  });

  it('updatePlan: the plan as changed; an unknown plan_id is the call’s refusal', async () => {
    await gateway.plan({ planId: 'DRY-UPD', name: 'Before', carrierPlanId: 'BASIC1GB' });
    const selection = `planId name carrierPlanId carrier price ${REPORT}`;
    const { dry, real } = await dryThenReal('updatePlan', { planId: 'DRY-UPD', name: 'After', price: 5 }, selection);
    expect((await gateway.app.services.directory.listPlans()).find((p) => p.planId === 'DRY-UPD')?.name).toBe('After');
    expect(without(dry.data?.updatePlan)).toEqual(without(real?.data?.updatePlan));
    const unknown = await dryThenReal('updatePlan', { planId: 'DRY-NOPE', name: 'x' }, selection);
    expect(codeOf(unknown.dry)).toBe('NOT_FOUND');
    expect(codeOf(unknown.real)).toBe('NOT_FOUND');
  });

  it('authorizePlans and deauthorizePlans: the user’s plans as they would be; unknown plans refused', async () => {
    await gateway.plan({ planId: 'DRY-A', name: 'A', carrierPlanId: 'BASIC1GB' });
    await gateway.plan({ planId: 'DRY-B', name: 'B', carrierPlanId: 'UNL10GB' });
    const { user } = await gateway.user({ plans: ['DRY-A'] });
    const selection = `planId ${REPORT}`;
    const authorized = async () =>
      (await gateway.app.services.directory.authorizedPlans(user.id)).map((plan) => plan.planId);

    const dryAdd = await dryThenReal('authorizePlans', { user: user.name, planIds: ['DRY-B'] }, selection, false);
    expect(dryAdd.dry.data?.authorizePlans).toMatchObject([{ planId: 'DRY-A' }, { planId: 'DRY-B' }]);
    expect(await authorized()).toEqual(['DRY-A']);
    const add = await dryThenReal('authorizePlans', { user: user.name, planIds: ['DRY-B'] }, 'planId');
    expect(add.real?.data?.authorizePlans).toEqual(without(dryAdd.dry.data?.authorizePlans));

    const missing = await dryThenReal('authorizePlans', { user: user.name, planIds: ['DRY-B', 'DRY-NONE'] }, 'planId');
    expect(codeOf(missing.dry)).toBe('NOT_FOUND');
    expect(missing.dry.errors?.[0]?.message).toBe(missing.real?.errors?.[0]?.message);

    const dryRemove = await dryThenReal(
      'deauthorizePlans',
      { user: user.name, planIds: ['DRY-A', 'X'] },
      selection,
      false,
    );
    expect(dryRemove.dry.data?.deauthorizePlans).toMatchObject([{ planId: 'DRY-B' }]);
    expect(await authorized()).toEqual(['DRY-A', 'DRY-B']);
    const nobody = await dryThenReal('deauthorizePlans', { user: 'dry-nobody', planIds: ['DRY-A'] }, 'planId');
    expect(codeOf(nobody.dry)).toBe(codeOf(nobody.real));
    expect(codeOf(nobody.dry)).toBe('NOT_FOUND');
  });
});

describe('tokens', () => {
  it('issueToken: no token made; an unknown or deactivated user and a bad ttl are the call’s refusals', async () => {
    const { user } = await gateway.user();
    const issued = async () => gateway.app.services.db.token.count({ where: { userId: user.id } });
    const before = await issued();
    const { dry } = await dryThenReal(
      'issueToken',
      { user: user.name, ttl: '2h' },
      `token id expiresAt ${REPORT}`,
      false,
    );
    expect(dry.data?.issueToken).toMatchObject({ token: '', id: '', dryRun: { wouldSucceed: true } });
    expect(await issued()).toBe(before);
    for (const [input, code] of [
      [{ user: 'dry-nobody' }, 'NOT_FOUND'],
      [{ user: user.name, ttl: '0h' }, 'BAD_USER_INPUT'],
      // Past ten years a lifetime overflowed the expiry date (a 500); five million weeks gave year 97,853.
      [{ user: user.name, ttl: '99999999d' }, 'BAD_USER_INPUT'],
      [{ user: user.name, ttl: '5000000w' }, 'BAD_USER_INPUT'],
      [{ user: user.name, ttl: '3651d' }, 'BAD_USER_INPUT'],
    ] as const) {
      const { dry: refused, real } = await dryThenReal('issueToken', input, 'id');
      expect(codeOf(refused)).toBe(code);
      expect(codeOf(real)).toBe(code);
    }
    const tooLong = await dryThenReal('issueToken', { user: user.name, ttl: '99999999d' }, 'id');
    expect(tooLong.real?.errors?.[0]?.message).toBe(
      'Invalid duration "99999999d": a token lifetime must be at most 3650d',
    );
    const longest = (await dryThenReal('issueToken', { user: user.name, ttl: '3650d' }, 'expiresAt')).real;
    const expiresAt = (longest?.data?.issueToken as { expiresAt: string }).expiresAt;
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(3649 * 86_400_000);
    expect(expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await gateway.app.services.directory.updateUser(user.name, { active: false });
    const deactivated = await dryThenReal('issueToken', { user: user.name }, 'id');
    expect(codeOf(deactivated.dry)).toBe('CONFLICT');
    expect(deactivated.dry.errors?.[0]?.message).toBe(deactivated.real?.errors?.[0]?.message);
  });

  it('revokeToken: a live token stays live; an unknown one is refused; a revoked one is said so', async () => {
    const { token } = await gateway.user();
    const { dry } = await dryThenReal('revokeToken', { token }, `id ${REPORT}`, false);
    expect(dry.data?.revokeToken).toMatchObject({ dryRun: { wouldSucceed: true } });
    expect((await gateway.rest('GET', '/sim/plans/available/', { token })).status).not.toBe(401);
    const { real } = await dryThenReal('revokeToken', { token }, 'id');
    expect(real?.data?.revokeToken).toEqual(without(dry.data?.revokeToken));
    const again = await dryThenReal('revokeToken', { token }, 'id dryRun { checks { name } }', false);
    expect(again.dry.data?.revokeToken).toMatchObject({ id: (dry.data?.revokeToken as { id: string }).id });
    const unknown = await dryThenReal('revokeToken', { token: '00000000-0000-4000-8000-000000000000' }, 'id');
    expect(codeOf(unknown.dry)).toBe('NOT_FOUND');
    expect(codeOf(unknown.real)).toBe('NOT_FOUND');
  });
});

describe('settings', () => {
  it('updateSetting: the rules checked against the settings as they are; nothing stored', async () => {
    const selection = `key value ${REPORT}`;
    const stored = async () => (await gateway.app.services.settings.get('maintenance_mode')).value;
    const { dry } = await dryThenReal('updateSetting', { key: 'maintenance_mode', value: 'true' }, selection, false);
    expect(dry.data?.updateSetting).toMatchObject({
      key: 'maintenance_mode',
      value: true,
      dryRun: { wouldSucceed: true },
    });
    expect(await stored()).toBe('false');
    for (const input of [
      { key: 'maintenance_mode', value: '"yes"' },
      { key: 'carriers_enabled', value: '{"321": false, "carrier_b": false}' },
      { key: 'default_carrier', value: 'not json' },
    ]) {
      const { dry: refused, real } = await dryThenReal('updateSetting', input, 'key');
      expect(codeOf(refused), JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(refused.errors?.[0]?.message).toBe(real?.errors?.[0]?.message);
    }
    const unknown = await dryThenReal('updateSetting', { key: 'no_such_key', value: '1' }, 'key');
    expect(codeOf(unknown.dry)).toBe('NOT_FOUND');
    expect(codeOf(unknown.real)).toBe('NOT_FOUND');
    expect(await stored()).toBe('false');
  });
});

describe('line owners', () => {
  it('assignLineOwner: a line known or found read-only at a carrier, nothing recorded; unknown ones refused', async () => {
    const { user } = await gateway.user();
    const selection = `mdn sim carrier subscriberStatus owner ${REPORT}`;
    const unseen = await seedUnknownLine(gateway, { carrier: 'carrier_b' });
    const { dry } = await dryThenReal('assignLineOwner', { mdn: unseen.mdn, user: user.name }, selection, false);
    expect(dry.data?.assignLineOwner, JSON.stringify(dry.errors)).toMatchObject({
      mdn: unseen.mdn,
      sim: unseen.sim,
      carrier: 'CARRIER_B',
      owner: user.name,
      dryRun: { wouldSucceed: true },
    });
    expect((await gateway.app.services.lines.byMdns([unseen.mdn])).size).toBe(0);
    const { real } = await dryThenReal(
      'assignLineOwner',
      { mdn: unseen.mdn, user: user.name },
      selection.replace(REPORT, ''),
    );
    expect(real?.data?.assignLineOwner).toEqual(without(dry.data?.assignLineOwner));

    const known = await seedLine(gateway, { carrier: '321' });
    const mismatch = await dryThenReal('assignLineOwner', { mdn: known.mdn, carrier: 'CARRIER_B' }, 'mdn');
    expect(codeOf(mismatch.dry)).toBe('BAD_USER_INPUT');
    expect(codeOf(mismatch.real)).toBe('BAD_USER_INPUT');
    for (const input of [{ mdn: '3215559999' }, { mdn: known.mdn, user: 'dry-nobody' }]) {
      const { dry: refused, real: refusedToo } = await dryThenReal('assignLineOwner', input, 'mdn');
      expect(codeOf(refused), JSON.stringify(input)).not.toBeNull();
      expect(codeOf(refused)).toBe(codeOf(refusedToo));
    }
    expect((await gateway.app.services.lines.byMdns([known.mdn])).get(known.mdn)?.ownerId).toBeNull();
  });
});
