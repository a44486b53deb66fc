// graphql-request against a real gateway port: a refused line is partial data beside its
// error (errorPolicy all), and a request without a token is a 401 the client raises.

import { ClientError, GraphQLClient } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { SCREEN, seedScreen, type Screen } from './dashboard.js';

let gateway: TestGateway;
let screen: Screen;

beforeAll(async () => {
  gateway = await startTestGateway();
  screen = await seedScreen(gateway);
});
afterAll(() => gateway.close());

interface Lines {
  lines: { mdn: string; carrier: string | null; usage: { status: string } | null }[];
}

describe('graphql-request', () => {
  it('returns the lines it may read beside a FORBIDDEN error for another user’s line', async () => {
    const client = new GraphQLClient(`${gateway.url}/graphql`, {
      headers: { authorization: `Bearer ${screen.token}` },
      errorPolicy: 'all',
    });
    const answer = await client.rawRequest<Lines>(SCREEN, { mdns: [screen.mdns[0], screen.foreign] });
    expect(answer.status).toBe(200);
    expect(answer.data.lines[0]).toMatchObject({
      mdn: screen.mdns[0],
      carrier: 'CARRIER_321',
      usage: { status: 'SUCCESS' },
    });
    expect(answer.data.lines[1]).toMatchObject({ mdn: screen.foreign, carrier: null, usage: null });
    expect(new Set(answer.errors?.map((error) => error.extensions?.code))).toEqual(new Set(['FORBIDDEN']));
    expect(answer.errors?.every((error) => error.path?.[1] === 1)).toBe(true);
  });

  it('raises a 401 without a token', async () => {
    const client = new GraphQLClient(`${gateway.url}/graphql`);
    const error = await client.rawRequest(SCREEN, { mdns: screen.mdns }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    const { response } = error as ClientError;
    expect(response.status).toBe(401);
    expect(response.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(response.data).toBeUndefined();
  });
});
