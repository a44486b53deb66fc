// A bulk activation job waiting for a carrier whose breaker is open (src/carriers/circuit-
// breaker.ts), across replicas on one database: a replica that stops while its job waits leaves
// the SIM it was holding pending, and the replica that takes the job over sends that SIM (once)
// instead of reading the refusal as its outcome; a cancel made through another replica reaches
// the waiting job, which ends cancelled without failing the SIM.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { startGateway, startReplica, type TestGateway } from '../../support/gateway.js';
import { createPlans } from '../../support/plans.js';
import { camelInput } from '../../support/surfaces.js';
import { sandboxEnv, setFaults } from '../../recovery/support.js';
import { activationBody } from './activations.js';

const FAILURES = 2;
const BREAKER = {
  CARRIER_RETRIES: '0',
  CARRIER_BREAKER_FAILURES: String(FAILURES),
  CARRIER_BREAKER_COOLDOWN_MS: '300',
  BULK_JOB_CONCURRENCY: '1',
  BULK_JOB_LEASE_MS: '600',
};

let first: TestGateway;
let second: TestGateway | undefined;
beforeEach(async () => {
  first = await startGateway({ env: BREAKER });
  await createPlans(first);
});
afterEach(async () => {
  await second?.close();
  second = undefined;
  await first.close();
});

async function waitingJob(items: Record<string, unknown>[]): Promise<{ id: string; token: string }> {
  const { token } = await first.user({ plans: ['A321'] });
  await setFaults(first, '321', { error_rate: 1 });
  const started = await first.graphql<{ startBulkActivation: { id: string } }>(
    'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
    { token, variables: { input: { activations: items.map(camelInput) } } },
  );
  expect(started.errors).toBeUndefined();
  const id = started.data!.startBulkActivation.id;
  // The first FAILURES SIMs fail (503), which opens the breaker; the next one is turned away, unsent.
  const held = items[FAILURES]!.transaction_id as string;
  const turnedAway = async () => (await first.app.services.transactions.find(held))?.noEffect === true;
  expect(await eventually(turnedAway, 10_000)).toBe(true);
  return { id, token };
}

const jobRow = (gateway: TestGateway, id: string) =>
  gateway.app.services.db.bulkActivationJob.findUnique({ where: { id } });

const itemsOf = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    activationBody({ plan_id: 'A321', transaction_id: `OUTAGE-${Date.now()}-${index}` }),
  );

describe('a bulk job waiting for its carrier', () => {
  it('stopped while it waits, leaves the held SIM pending; the replica that takes it over sends it, once', async () => {
    const items = itemsOf(FAILURES + 2);
    const { id, token } = await waitingJob(items);
    await first.app.services.bulkJobs.stop();
    expect((await jobRow(first, id))?.status).toBe('running');

    await setFaults(first, '321', {});
    second = await startReplica(first, { ...BREAKER, ...sandboxEnv(first) });
    expect(await eventually(async () => (await jobRow(first, id))?.status === 'completed', 20_000)).toBe(true);

    const view = await second.graphql<{ bulkActivation: { results: { sim: string; status: string }[] } }>(
      'query ($id: String!) { bulkActivation(id: $id, first: 100) { results { sim status } } }',
      { token, variables: { id } },
    );
    const results = view.data!.bulkActivation.results;
    expect(results.map((entry) => entry.sim)).toEqual(items.map((item) => item.sim));
    expect(results.slice(FAILURES).map((entry) => entry.status)).toEqual(['SUCCESS', 'SUCCESS']);
    for (const item of items.slice(FAILURES))
      expect(first.sandboxes.cores['321'].activationCalls(String(item.sim)).requests).toBe(1);
  });

  it('cancelled through another replica, ends cancelled without failing the SIM it held', async () => {
    const items = itemsOf(FAILURES + 2);
    const { id } = await waitingJob(items);
    second = await startReplica(first, { ...BREAKER, ...sandboxEnv(first) });
    const { token: admin } = await second.user({ superuser: true });
    const cancel = await second.graphql(
      'mutation ($id: String!) { cancelBulkActivation(input: { id: $id }) { status } }',
      { token: admin, variables: { id } },
    );
    expect(cancel.errors).toBeUndefined();
    expect(await eventually(async () => (await jobRow(first, id))?.status === 'cancelled', 10_000)).toBe(true);
    const row = await jobRow(first, id);
    expect(row?.processed).toBe(FAILURES);
    expect(first.sandboxes.cores['321'].activationCalls(String(items[FAILURES]!.sim)).requests).toBe(0);
  });
});
