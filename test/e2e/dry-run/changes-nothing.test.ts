// What a dry run leaves behind: nothing. No transaction row, no line in the registry or at the
// carrier, no write budget spent; a used transaction id is the real call's 409, a bad
// `dry_run` a 422, a refusal before the carrier the real call's own; and on GraphQL the
// report is the `dryRun` field of the payload (null on a real call), for carrier-routed and
// local mutations alike.

import { beforeEach, describe, expect, it } from 'vitest';
import { activationBody } from '../activation/activations.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;
const gateway = useGateway();

beforeEach(async () => {
  await createPlans(gateway);
  ({ token } = await gateway.user({ plans: ALL_PLANS }));
});

const REPORT =
  'dryRun { operation wouldSucceed carrier transactionId predictedCode predictedMessage checks { name outcome detail } unpredictable }';

describe('REST ?dry_run=true', () => {
  it('answers the report and reserves, spends, sends and records nothing', async () => {
    const body = activationBody({ transaction_id: 'DRY-1' });
    const dry = await gateway.rest('POST', '/sim/activate/?dry_run=true', { token, body });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      operation: 'activateSim',
      would_succeed: true,
      carrier: '321',
      transaction_id: 'DRY-1',
      predicted_code: null,
      predicted_message: null,
    });
    const names = (dry.body.checks as { name: string; outcome: string }[]).map((check) => check.name);
    expect(names).toEqual([
      'authentication',
      'maintenance',
      'rateLimit',
      'validation',
      'transactionId',
      'planAuthorization',
      'lineOwnership',
      'carrier',
      'sim',
      'zipCoverage',
    ]);
    expect(dry.body.unpredictable).toEqual(
      expect.arrayContaining([expect.stringContaining('(906)'), expect.stringContaining('(GENS-0011)')]),
    );
    expect(await gateway.app.services.transactions.find('DRY-1')).toBeNull();
    expect((await gateway.app.services.lines.bySims([String(body.sim)])).size).toBe(0);
    await expect(gateway.sandboxes.cores['321'].getSimDetails(String(body.sim))).resolves.toMatchObject({
      iccidStatus: 'AVAILABLE',
    });
    // The write budget is untouched: the real call then counts the first of 30.
    const real = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(real.status).toBe(200);
    expect(real.headers.get('ratelimit')).toContain('r=29');
  });

  it('refuses a used transaction id with the real call’s 409, and a bad dry_run with 422', async () => {
    const body = activationBody({ transaction_id: 'DRY-USED' });
    expect((await gateway.rest('POST', '/sim/activate/', { token, body })).status).toBe(200);
    const again = await gateway.rest('POST', '/sim/activate/?dry_run=true', { token, body });
    expect(again.status).toBe(409);
    const bad = await gateway.rest('POST', '/sim/activate/?dry_run=yes', { token, body: activationBody() });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: [expect.objectContaining({ loc: ['query', 'dry_run'], type: 'bool_parsing' })],
    });
  });

  it('gives the real call’s refusals before the carrier: 401, 403 plan, 422 input', async () => {
    expect((await gateway.rest('POST', '/sim/activate/?dry_run=true', { body: activationBody() })).status).toBe(401);
    const unauthorized = await gateway.rest('POST', '/sim/activate/?dry_run=true', {
      token: (await gateway.user()).token,
      body: activationBody(),
    });
    expect(unauthorized.status).toBe(403);
    const invalid = await gateway.rest('POST', '/sim/activate/?dry_run=true', { token, body: { sim: 'x' } });
    expect(invalid.status).toBe(422);
  });

  it('predicts without touching the line: a dry-run suspend leaves it ACTIVE', async () => {
    const line = await seedLine(gateway);
    const dry = await gateway.rest('POST', '/sim/suspend/?dry_run=true', { token, body: { mdn: line.mdn } });
    expect(dry.body).toMatchObject({ would_succeed: true, carrier: '321' });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });
});

describe('GraphQL dryRun: true', () => {
  it('puts the report on the payload: the predicted failure envelope with its code', async () => {
    const line = await seedLine(gateway);
    const answer = await gateway.graphql(
      `mutation ($mdn: String!) { restoreLine(input: { mdn: $mdn, dryRun: true }) { status message errorCode transactionId ${REPORT} } }`,
      { token: token, variables: { mdn: line.mdn } },
    );
    const payload = (answer.data as { restoreLine: Record<string, unknown> }).restoreLine;
    expect(payload).toMatchObject({
      status: 'FAILURE',
      message: 'MSISDN is not suspended (GENS-0033)',
      errorCode: 'GENS-0033',
      dryRun: {
        operation: 'restoreLine',
        wouldSucceed: false,
        predictedCode: 'GENS-0033',
        predictedMessage: 'MSISDN is not suspended (GENS-0033)',
        checks: expect.arrayContaining([{ name: 'lineStatus', outcome: 'FAILED', detail: expect.any(String) }]),
      },
    });
  });

  it('is null on a real call', async () => {
    const line = await seedLine(gateway);
    const answer = await gateway.graphql(
      `mutation ($mdn: String!) { suspendLine(input: { mdn: $mdn }) { status dryRun { wouldSucceed } } }`,
      { token: token, variables: { mdn: line.mdn } },
    );
    expect(answer.data).toEqual({ suspendLine: { status: 'SUCCESS', dryRun: null } });
  });

  it('predicts a superuser mutation from the directory: a taken name is the real call’s refusal', async () => {
    const admin = await gateway.user({ superuser: true });
    const create = (name: string) =>
      gateway.graphql(
        `mutation ($name: String!) { createUser(input: { name: $name, dryRun: true }) { name active dryRun { wouldSucceed carrier checks { name } } } }`,
        { token: admin.token, variables: { name } },
      );
    const fresh = await create('dry-run-newcomer');
    expect(fresh.data).toEqual({
      createUser: {
        name: 'dry-run-newcomer',
        active: true,
        dryRun: { wouldSucceed: true, carrier: null, checks: expect.arrayContaining([{ name: 'userName' }]) },
      },
    });
    expect((await gateway.app.services.directory.listUsers()).some((u) => u.name === 'dry-run-newcomer')).toBe(false);
    const taken = await create((await gateway.user()).user.name);
    expect(taken.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
  });
});
