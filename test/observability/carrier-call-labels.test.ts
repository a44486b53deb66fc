// Each carrier call is counted under the gateway operation it serves, on both carriers, for the
// extended operations, and for a re-send by the reconciler; a readiness check is not counted.
// (The scope travels in the closures of the scoped adapter the pipeline hands each handler, see
// src/carriers/call-scope.ts: a method taken off that adapter keeps it.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activationBody } from '../e2e/activation/activations.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { seedLine } from '../support/lines.js';
import { createPlans } from '../support/plans.js';
import { setFaults } from '../recovery/support.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway({ env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0' } });
  await createPlans(gateway);
});
afterAll(() => gateway.close());

/** How many calls the carrier-call histogram counted under these labels. */
async function calls(carrier: string, operation: string, outcome: string): Promise<number> {
  const metric = await gateway.app.services.metrics.carrierCalls.get();
  const count = metric.values.find(
    (value) =>
      value.metricName === 'line_gateway_carrier_call_duration_seconds_count' &&
      value.labels.carrier === carrier &&
      value.labels.operation === operation &&
      value.labels.outcome === outcome,
  );
  return count?.value ?? 0;
}

/** Every carrier call counted, whatever its labels. */
async function total(): Promise<number> {
  const metric = await gateway.app.services.metrics.carrierCalls.get();
  return metric.values
    .filter((value) => value.metricName === 'line_gateway_carrier_call_duration_seconds_count')
    .reduce((sum, value) => sum + value.value, 0);
}

describe('carrier call labels', () => {
  it('name the operation on both carriers, extended operations included', async () => {
    const { token } = await gateway.user();
    const on321 = await seedLine(gateway);
    const onB = await seedLine(gateway, { carrier: 'carrier_b' });
    expect((await gateway.rest('GET', `/sim/usage/${onB.mdn}`, { token })).status).toBe(200);
    expect((await gateway.rest('GET', `/sim/plan/active/${on321.mdn}`, { token })).status).toBe(200);
    expect(await calls('carrier_b', 'usage', 'success')).toBe(1);
    expect(await calls('321', 'activePlan', 'success')).toBe(1);
  });

  it('travel with a method taken off the scoped adapter, and one scoped adapter serves each operation', async () => {
    const { carriers, metrics } = gateway.app.services;
    const line = await seedLine(gateway);
    const scoped = carriers.scopedAdapter('321', { operation: 'lineLabelProbe', metrics });
    expect(carriers.scopedAdapter('321', { operation: 'lineLabelProbe', metrics })).toBe(scoped);
    const { getUsage } = scoped;
    await getUsage(line.mdn);
    expect(await calls('321', 'lineLabelProbe', 'success')).toBe(1);
    // The unscoped adapter (lookups outside an operation) is counted nowhere.
    const before = await total();
    await carriers.adapter('321').getUsage(line.mdn);
    expect(await total()).toBe(before);
  });

  it('leave out a readiness check, which serves no operation', async () => {
    const before = await total();
    expect(await gateway.app.services.carriers.probe('321')).toBe('ok');
    expect(await total()).toBe(before);
  });

  it('keep the operation for a re-send by the reconciler', async () => {
    const { token } = await gateway.user({ plans: ['A321'] });
    const id = `LABEL-${Date.now()}`;
    await setFaults(gateway, '321', { latency_ms: 1000 });
    let answer;
    try {
      answer = await gateway.rest('POST', '/sim/activate/', {
        token,
        body: activationBody({ plan_id: 'A321', transaction_id: id }),
      });
    } finally {
      await setFaults(gateway, '321', {});
    }
    expect(answer.status).toBe(400);
    expect(await calls('321', 'activateSim', 'timeout')).toBe(1);
    const resolved = async () => (await gateway.app.services.transactions.find(id))?.status === 'success';
    expect(await eventually(resolved, 20_000, 100)).toBe(true);
    expect(await calls('321', 'activateSim', 'success')).toBe(1);
  });
});
