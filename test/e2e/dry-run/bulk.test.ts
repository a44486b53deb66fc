// The dry run of bulk activation, on both of its surfaces: `POST /sim/activate/bulk/?dry_run=true`
// and `startBulkActivation(input: {…, dryRun: true})` predict each SIM as a single activation's
// dry run would, in request order, store nothing (no job, no transaction, no line), and agree
// with the real batch that follows.

import { beforeEach, describe, expect, it } from 'vitest';
import { activationBody } from '../activation/activations.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { freshSim } from '../../support/lines.js';
import { camelInput } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;
const gateway = useGateway();

beforeEach(async () => {
  await createPlans(gateway);
  ({ token } = await gateway.user({ plans: ALL_PLANS }));
});

interface Entry {
  sim: string;
  status: string;
  message: string;
}

/** A good SIM, an invalid one (GENS-0006), one in use (910), and a good one with a taken id. */
function batch(takenId: string) {
  return [
    activationBody(),
    activationBody({ sim: freshSim('8903') }),
    activationBody({ sim: freshSim('8999') }),
    activationBody({ transaction_id: takenId }),
  ];
}

const counts = async () => ({
  jobs: await gateway.app.services.db.bulkActivationJob.count(),
  transactions: await gateway.app.services.db.transaction.count(),
  lines: await gateway.app.services.db.line.count(),
});

const outcomes = (entries: Entry[]) => entries.map((entry) => [entry.sim, entry.status]);

describe('bulk activation dry run', () => {
  it('predicts every SIM over REST, stores nothing, and agrees with the real batch', async () => {
    const taken = `TAKEN_${Date.now()}`;
    expect(
      (await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ transaction_id: taken }) })).status,
    ).toBe(200);
    const activations = batch(taken);
    const before = await counts();
    const dry = await gateway.rest<{ would_succeed: boolean; checks: { name: string; outcome: string }[] }>(
      'POST',
      '/sim/activate/bulk/?dry_run=true',
      { token, body: { activations } },
    );
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(await counts()).toEqual(before);
    // The request would be answered 200; each SIM's prediction is a check of its own.
    expect(dry.body.would_succeed).toBe(true);
    const itemChecks = dry.body.checks.filter((check) => check.name.startsWith('activations['));
    expect(itemChecks.map((check) => check.outcome)).toEqual(['passed', 'failed', 'failed', 'failed']);

    const real = await gateway.rest<{ results: Entry[] }>('POST', '/sim/activate/bulk/', {
      token,
      body: { activations },
    });
    expect(real.status).toBe(200);
    expect(real.body.results.map((entry) => entry.status)).toEqual(['success', 'failure', 'failure', 'failure']);
    expect(real.body.results[1]!.message).toMatch(/\(GENS-0006\)$/);
    expect(real.body.results[2]!.message).toMatch(/\(910\)$/);
  });

  it('predicts a job over GraphQL: the job as it would finish, with no id, and no job stored', async () => {
    const activations = [activationBody(), activationBody({ sim: freshSim('8903') })].map(camelInput);
    const before = await counts();
    const dry = await gateway.graphql<{
      startBulkActivation: {
        id: string;
        total: number;
        succeeded: number;
        failed: number;
        results: Entry[];
        dryRun: { wouldSucceed: boolean; unpredictable: string[] };
      };
    }>(
      `mutation ($input: StartBulkActivationInput!) {
        startBulkActivation(input: $input) {
          id total succeeded failed results { sim status message }
          dryRun { wouldSucceed unpredictable }
        }
      }`,
      { token, variables: { input: { activations, dryRun: true } } },
    );
    expect(dry.errors).toBeUndefined();
    const job = dry.data!.startBulkActivation;
    expect(job).toMatchObject({ id: '', total: 2, succeeded: 1, failed: 1 });
    expect(outcomes(job.results)).toEqual([
      [activations[0]!.sim, 'SUCCESS'],
      [activations[1]!.sim, 'FAILURE'],
    ]);
    expect(job.results[1]!.message).toMatch(/\(GENS-0006\)$/);
    expect(job.dryRun.wouldSucceed).toBe(true);
    expect(job.dryRun.unpredictable.length).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
  });

  it('predicts a transaction id repeated within the batch as the real batch refuses it', async () => {
    const id = `TWICE_${Date.now()}`;
    const activations = [activationBody({ transaction_id: id }), activationBody({ transaction_id: id })];
    const dry = await gateway.rest<{ checks: { name: string; outcome: string; detail: string }[] }>(
      'POST',
      '/sim/activate/bulk/?dry_run=true',
      { token, body: { activations } },
    );
    const itemChecks = dry.body.checks.filter((check) => check.name.startsWith('activations['));
    expect(itemChecks.map((check) => check.outcome)).toEqual(['passed', 'failed']);
    expect(itemChecks[1]!.detail).toMatch(/already exists/);
    const real = await gateway.rest<{ results: Entry[] }>('POST', '/sim/activate/bulk/', {
      token,
      body: { activations },
    });
    expect(real.body.results.map((entry) => entry.status)).toEqual(['success', 'failure']);
  });

  it('spends a dry-run budget of the batch’s own size (10 an hour), not its write budget', async () => {
    const body = () => ({ activations: [activationBody()] });
    for (let run = 0; run < 10; run++)
      expect((await gateway.rest('POST', '/sim/activate/bulk/?dry_run=true', { token, body: body() })).status).toBe(
        200,
      );
    const refused = await gateway.rest('POST', '/sim/activate/bulk/?dry_run=true', { token, body: body() });
    expect(refused.status).toBe(429);
    // The batch's own budget is untouched.
    expect((await gateway.rest('POST', '/sim/activate/bulk/', { token, body: body() })).status).toBe(200);
  });
});
