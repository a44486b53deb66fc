// Measures how long a timed-out activation takes to be recovered: from the 504 the caller gets
// to the moment transaction(id) shows success with the MDN. Real gateway, sandbox carriers with
// a latency fault longer than CARRIER_TIMEOUT_MS, lifted as soon as the 504 arrives (the carrier
// is reachable again) or `slowForMs` later. Usage: npx tsx bench/recovery-time.ts [runs=10] [slowForMs=0].

import { performance } from 'node:perf_hooks';
import type { CarrierId } from '../src/carriers/types.js';
import { startTestGateway } from '../test/support/gateway.js';
import { activationBody } from '../test/e2e/activation/activations.js';
import { createPlans } from '../test/support/plans.js';
import { setFaults } from '../test/recovery/support.js';

const runs = Number(process.argv[2] ?? 10);
const slowForMs = Number(process.argv[3] ?? 0);
const timeoutMs = 1000;
const gateway = await startTestGateway({ env: { CARRIER_TIMEOUT_MS: String(timeoutMs), CARRIER_RETRIES: '0' } });
await createPlans(gateway);
const { token } = await gateway.user({ plans: ['A321', 'BPLAN'] });
const query = 'query ($id: String!) { transaction(id: $id) { status } }';

for (const [carrier, plan] of [
  ['321', 'A321'],
  ['carrier_b', 'BPLAN'],
] as [CarrierId, string][]) {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const id = `MEASURE-${carrier}-${Date.now()}-${run}`;
    await setFaults(gateway, carrier, { latency_ms: timeoutMs + 500 });
    const answer = await gateway.rest('POST', '/sim/activate/', {
      token,
      body: activationBody({ plan_id: plan, transaction_id: id }),
    });
    const at504 = performance.now();
    if (slowForMs > 0) await new Promise((resolve) => setTimeout(resolve, slowForMs));
    await setFaults(gateway, carrier, {});
    if (answer.status !== 504) throw new Error(`expected 504, got ${answer.status}`);
    for (;;) {
      const record = await gateway.graphql<{ transaction: { status: string } }>(query, { token, variables: { id } });
      if (record.data?.transaction.status === 'SUCCESS') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    times.push(performance.now() - at504);
  }
  times.sort((a, b) => a - b);
  const pick = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
  process.stdout.write(
    `${carrier}: ${runs} timed-out activations recovered after the 504 (carrier slow for ${slowForMs} ms more) in min ${pick(0)} ms, median ${pick(0.5)} ms, max ${pick(1)} ms\n`,
  );
}
await gateway.close();
