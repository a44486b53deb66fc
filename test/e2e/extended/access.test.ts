// What every extended operation shares, on both surfaces: a bearer token is required (401),
// and a carrier without extended operations answers 501 however it was chosen (the user's
// preference, the default_carrier setting, the carrier the line lives on), changing nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLAnswer, type HttpAnswer } from '../../support/gateway.js';
import { callGraphQL, callRest, calls, type Line } from './calls.js';
import { expectGraphQLError } from '../../support/surfaces.js';
import { seedUnknownLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let line: Line;

const gateway = useGateway();
beforeAll(async () => {
  line = await seedUnknownLine(gateway);
});

function expectNotSupported(rest: HttpAnswer, graphql: GraphQLAnswer, name: string): void {
  expect(rest.status).toBe(501);
  expect(rest.body).toEqual({
    status: 'failure',
    message: `${name} is not supported by carrier carrier_b`,
    code: 'HTTP_501',
  });
  expectGraphQLError(graphql, 'NOT_SUPPORTED', 501);
  expect(graphql.errors?.[0]?.message).toBe(`${name} is not supported by carrier carrier_b`);
}

describe.each(calls)('$name', (call) => {
  it('works on carrier 321 on both surfaces', async () => {
    const { token } = await gateway.user();
    const rest = await callRest(gateway, call, line, token);
    expect(rest.status).toBe(200);
    const graphql = await callGraphQL(gateway, call, line, token);
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.[call.name]).toMatchObject({ status: 'SUCCESS' });
  });

  it('requires a bearer token (401 / UNAUTHENTICATED)', async () => {
    const rest = await callRest(gateway, call, line);
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ detail: 'Not authenticated' });
    expect(rest.headers.get('www-authenticate')).toBe('Bearer');
    expectGraphQLError(await callGraphQL(gateway, call, line), 'UNAUTHENTICATED', 401);
  });

  it('answers 501 / NOT_SUPPORTED for a user whose carrier is carrier_b', async () => {
    const { token } = await gateway.user({ carrier: 'carrier_b' });
    expectNotSupported(
      await callRest(gateway, call, line, token),
      await callGraphQL(gateway, call, line, token),
      call.name,
    );
  });
});

describe('a line that lives on carrier_b', () => {
  let bLine: Line;
  beforeAll(async () => {
    bLine = await seedUnknownLine(gateway, { carrier: 'carrier_b', carrierPlanId: 'SOC-BASIC' });
    await gateway.app.services.lines.record({ ...bLine, carrier: 'carrier_b' });
  });

  it.each(calls.filter((call) => call.byLine))(
    'makes $name answer 501 / NOT_SUPPORTED, even for a user of carrier 321',
    async (call) => {
      const { token } = await gateway.user({ carrier: '321' });
      expectNotSupported(
        await callRest(gateway, call, bLine, token),
        await callGraphQL(gateway, call, bLine, token),
        call.name,
      );
    },
  );

  it('changes nothing: the refused transaction id stays free', async () => {
    const { token } = await gateway.user();
    const transactionId = `B-${Date.now()}`;
    const refused = await gateway.rest('POST', '/sim/sms/send/', {
      token,
      body: { mdn: bLine.mdn, message: 'Hi', transaction_id: transactionId },
    });
    expect(refused.status).toBe(501);
    const sent = await gateway.rest('POST', '/sim/sms/send/', {
      token,
      body: { mdn: line.mdn, message: 'Hi', transaction_id: transactionId },
    });
    expect(sent.status).toBe(200);
  });
});

describe('default_carrier set to carrier_b', () => {
  const setDefault = async (value: string) => {
    const { token } = await gateway.user({ superuser: true });
    const answer = await gateway.rest('PUT', '/settings/default_carrier', {
      token,
      body: { value: JSON.stringify(value) },
    });
    expect(answer.status).toBe(200);
  };
  beforeAll(() => setDefault('carrier_b'));
  afterAll(() => setDefault('321'));

  it.each(calls)('makes $name answer 501 / NOT_SUPPORTED for a user without a preference', async (call) => {
    const { token } = await gateway.user();
    // The line is unknown to the gateway's registry, so line operations fall back to the default too.
    expectNotSupported(
      await callRest(gateway, call, line, token),
      await callGraphQL(gateway, call, line, token),
      call.name,
    );
  });

  it('leaves a user who prefers carrier 321 on carrier 321', async () => {
    const { token } = await gateway.user({ carrier: '321' });
    expect((await gateway.rest('GET', '/sim/plans/available/', { token })).status).toBe(200);
  });
});
