// A carrier fault answered over REST in the operation's own failure envelope, the one its
// refusals use (the spec's failure bodies: usage's `errors`, SIM details' flags and nulls, a
// write's line and SIM), so a legacy client reads a fault as it reads a refusal; only the message
// and its code differ. A fault never takes a refusal's 200 answer (coverage's "not covered").

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway({ env: { CARRIER_RETRIES: '0' } });
let token: string;
let line: SeededLine;

const FAULT = 'Carrier 321 reported an internal error (CARRIER_UNAVAILABLE)';

async function setFaults(faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${gateway.sandboxes.urls['321']}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(response.status).toBe(200);
}

/** The answer of `path` with carrier 321 answering 5xx to every call. */
async function duringFault(method: string, path: string, body?: unknown) {
  await setFaults({ error_rate: 1 });
  try {
    return await gateway.rest(method, path, { token, body });
  } finally {
    await setFaults({});
  }
}

const keysOf = (body: Record<string, unknown>) => Object.keys(body).sort();

beforeAll(async () => {
  ({ token } = await gateway.user());
  line = await seedLine(gateway);
});
afterEach(() => setFaults({}));

describe('REST carrier faults in the operation failure envelope', () => {
  it('usage: status, message and errors, as a refusal (918) has them', async () => {
    const fault = await duringFault('GET', `/sim/usage/${line.mdn}`);
    expect(fault.status).toBe(400);
    expect(fault.body).toEqual({ status: 'failure', errors: [FAULT], message: FAULT });
    const refusal = await gateway.rest('GET', '/sim/usage/3219999999', { token });
    expect(refusal.status).toBe(400);
    expect(keysOf(refusal.body)).toEqual(keysOf(fault.body));
  });

  it('SIM details: both eligibility flags false and the other fields null, as a refusal (918) has them', async () => {
    const fault = await duringFault('GET', `/sim/details/${line.sim}`);
    expect(fault.status).toBe(400);
    const unknownSim = '8903000000000000001';
    const refusal = await gateway.rest('GET', `/sim/details/${unknownSim}`, { token });
    expect(refusal.status).toBe(400);
    expect(refusal.body).toMatchObject({ sim: unknownSim, activation_eligible: false, iccid_status: null });
    expect(fault.body).toEqual({ ...refusal.body, sim: line.sim, message: FAULT });
  });

  it('coverage: a fault is a failure (400), never the 200 "not covered" answer', async () => {
    const fault = await duringFault('GET', '/sim/coverage/30301');
    expect(fault.status).toBe(400);
    expect(fault.body).toMatchObject({ status: 'failure', covered: false, message: FAULT });
  });

  it('a write: its line, SIM and transaction id, and the transaction log keeps the same body', async () => {
    const transactionId = `FAULT-DISCONNECT-${line.mdn}`;
    const fault = await duringFault('POST', '/sim/disconnect/', {
      mdn: line.mdn,
      sim: line.sim,
      acknowledge_final: true,
      transaction_id: transactionId,
    });
    expect(fault.status).toBe(400);
    expect(fault.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: transactionId,
      message: expect.stringMatching(/^Carrier 321 reported an internal error.*\(CARRIER_UNAVAILABLE\)$/),
    });
    const logged = await gateway.rest('GET', `/transactions/${transactionId}`, { token });
    expect(logged.body.http_status).toBe(400);
    expect(JSON.parse(String(logged.body.response))).toEqual(fault.body);
  });

  it('GraphQL is unchanged: the fault is an error on its field, with its code', async () => {
    await setFaults({ error_rate: 1 });
    try {
      const answer = await gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', {
        token,
        variables: { mdn: line.mdn },
      });
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'CARRIER_UNAVAILABLE', status: 400 });
    } finally {
      await setFaults({});
    }
  });
});
