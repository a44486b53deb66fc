// Each extended operation has its own per-user budget per minute (spec: 30; CIM and SMS 10;
// phone list, label and IMEI change 20), shared by REST and GraphQL: one call more is 429 on
// either surface.

import { beforeAll, describe, expect, it } from 'vitest';
import { callGraphQL, callRest, calls, type Line } from './calls.js';
import { expectGraphQLError } from '../../support/surfaces.js';
import { seedUnknownLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let line: Line;

const gateway = useGateway();
beforeAll(async () => {
  line = await seedUnknownLine(gateway);
});

describe.each(calls)('$name', (call) => {
  it(`answers 429 / RATE_LIMITED after ${call.limit} calls a minute, on both surfaces`, async () => {
    const { token } = await gateway.user();
    // Validation comes after the rate limit, so refused calls spend the budget too (and cost less).
    const spend = call.invalid;
    for (let i = 0; i < call.limit; i++) {
      const answer = spend
        ? await gateway.rest(spend.method, spend.path, { token, body: spend.body })
        : await callRest(gateway, call, line, token);
      expect(answer.status).toBe(spend ? 422 : 200);
    }
    const rest = await callRest(gateway, call, line, token);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({
      status: 'failure',
      message: `Rate limit exceeded: ${call.limit} per 1 minute`,
      code: 'HTTP_429',
    });
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    expectGraphQLError(await callGraphQL(gateway, call, line, token), 'RATE_LIMITED', 429);
    // The budget is the user's: another user still gets through.
    expect((await callRest(gateway, call, line, (await gateway.user()).token)).status).toBe(200);
  });
});
