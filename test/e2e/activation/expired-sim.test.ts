// GENS-0197: an activation with a SIM past its expiration date. In its own file because it
// moves the sandbox clock about four years forward, which expires every unused SIM.

import { beforeAll, expect, it } from 'vitest';
import { activateOnGraphQL, activationBody } from './activations.js';
import { createPlans } from '../../support/plans.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway();
beforeAll(async () => {
  await createPlans(gateway);
});

it('answers (GENS-0197) for an expired SIM on REST and GraphQL', async () => {
  const { token } = await gateway.user({ plans: ['BASIC'] });
  // SIMs are made up to a year before the sandbox started and last three years.
  const advanced = await fetch(`${gateway.sandboxes.urls['321']}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_days: 4 * 366 }),
  });
  expect(advanced.status).toBe(200);
  const body = activationBody();
  const rest = await gateway.rest('POST', '/sim/activate/', { token, body });
  expect(rest.status).toBe(400);
  expect(rest.body).toMatchObject({ status: 'failure', sim: body.sim, message: 'SIM has expired (GENS-0197)' });
  const graphql = await activateOnGraphQL(gateway, token, activationBody());
  expect(graphql.data?.activateSim).toMatchObject({ status: 'FAILURE', message: 'SIM has expired (GENS-0197)' });
});
