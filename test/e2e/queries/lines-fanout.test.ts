// How `lines(mdns:)` fans out to the carriers, watched at the sandbox carriers' own servers:
// identical calls within a request are made once (the same MDN twice, the same field under two
// aliases), the calls in flight to one carrier never exceed LINES_CARRIER_CONCURRENCY, and a
// line that fails (refused by its carrier, another user's, on a carrier that is down) fails
// alone.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../src/graphql/dashboard.js';
import type { CarrierId } from '../../../src/carriers/types.js';
import { NO_FAULTS } from '../../../src/sandbox/http-kit.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const BOUND = 3;
const gateway = useGateway({ env: { LINES_CARRIER_CONCURRENCY: String(BOUND), CARRIER_RETRIES: '0' } });

let token: string;
let userId: string;
const mdns: string[] = [];
let lineOnB: string;

beforeAll(async () => {
  const caller = await gateway.user();
  token = caller.token;
  userId = caller.user.id;
  for (let i = 0; i < 8; i++) {
    const line = await seedLine(gateway, { register: false });
    await gateway.app.services.lines.record({ ...line, owner: userId });
    mdns.push(line.mdn);
  }
  const onB = await seedLine(gateway, { carrier: 'carrier_b', register: false });
  await gateway.app.services.lines.record({ ...onB, owner: userId });
  lineOnB = onB.mdn;
});

interface Watch {
  /** Requests the carrier received whose URL names `mdn`. */
  requestsNaming(mdn: string): number;
  total(): number;
  /** Most requests the carrier was answering at once. */
  peakInFlight(): number;
  stop(): void;
}

/** Watches the requests a sandbox carrier receives, at its HTTP server. */
function watchCarrier(carrier: CarrierId): Watch {
  const server = gateway.sandboxes.servers[carrier].server;
  const urls: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    urls.push(request.url ?? '');
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    response.once('close', () => (inFlight -= 1));
  };
  server.on('request', onRequest);
  return {
    requestsNaming: (mdn) => urls.filter((url) => url.includes(mdn)).length,
    total: () => urls.length,
    peakInFlight: () => peak,
    stop: () => server.off('request', onRequest),
  };
}

const watches: Watch[] = [];
const watch = (carrier: CarrierId) => {
  const started = watchCarrier(carrier);
  watches.push(started);
  return started;
};

afterEach(() => {
  for (const started of watches.splice(0)) started.stop();
  gateway.sandboxes.servers['321'].faults = NO_FAULTS;
  gateway.sandboxes.servers.carrier_b.faults = NO_FAULTS;
});

type Lines = { lines: Record<string, unknown>[] | null };

describe('lines(mdns:): one carrier call per distinct call', () => {
  it('calls the carrier once for an MDN listed twice and a field selected twice under aliases', async () => {
    const [first, second] = mdns as [string, string];
    // What one line with each field once costs at the carrier.
    const single = watch('321');
    const alone = await gateway.graphql<Lines>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } networkStatus { status } } }`,
      { token, variables: { mdns: [first] } },
    );
    expect(alone.errors).toBeUndefined();
    const perLine = single.requestsNaming(first);
    expect(perLine).toBeGreaterThanOrEqual(2);

    const repeated = watch('321');
    const answer = await gateway.graphql<Lines>(
      `query ($mdns: [String!]!) {
        lines(mdns: $mdns) { mdn a: usage { status } b: usage { status planName } networkStatus { status } }
      }`,
      { token, variables: { mdns: [first, second, first] } },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.lines?.map((line) => line.mdn)).toEqual([first, second, first]);
    for (const line of answer.data!.lines!) {
      expect(line).toMatchObject({
        a: { status: 'SUCCESS' },
        b: { status: 'SUCCESS' },
        networkStatus: { status: 'SUCCESS' },
      });
    }
    expect(repeated.requestsNaming(first)).toBe(perLine);
    expect(repeated.requestsNaming(second)).toBe(perLine);
  });

  it('reads the service record once for service, simDetails and esimProfile of a line listed twice', async () => {
    const [line] = mdns as [string];
    const carrier = watch('321');
    const answer = await gateway.graphql<Lines>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { service { sim } simDetails { sim } esimProfile { sim } } }`,
      { token, variables: { mdns: [line, line] } },
    );
    expect(answer.errors).toBeUndefined();
    const sim = (answer.data!.lines![0]!.service as { sim: string }).sim;
    expect(answer.data!.lines![1]).toMatchObject({ simDetails: { sim }, esimProfile: { sim } });
    // One service record read (it names the MDN); the SIM queries name the SIM, once each.
    expect(carrier.requestsNaming(line)).toBe(1);
    expect(carrier.total()).toBe(3);
  });
});

describe('lines(mdns:): bounded per carrier', () => {
  it(`never has more than ${BOUND} calls in flight to a slow carrier, and answers every line`, async () => {
    gateway.sandboxes.servers['321'].faults = { ...NO_FAULTS, latencyMs: 30 };
    const carrier = watch('321');
    const answer = await gateway.graphql<Lines>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } networkStatus { status } } }`,
      { token, variables: { mdns } },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.lines).toHaveLength(mdns.length);
    for (const line of answer.data!.lines!)
      expect(line).toMatchObject({ usage: { status: 'SUCCESS' }, networkStatus: { status: 'SUCCESS' } });
    expect(carrier.total()).toBeGreaterThanOrEqual(mdns.length * 2);
    // Sixteen calls against a 30 ms carrier: the bound is reached and never passed.
    expect(carrier.peakInFlight()).toBe(BOUND);
  });

  it('bounds each carrier on its own: a slow carrier does not hold back the other', async () => {
    gateway.sandboxes.servers['321'].faults = { ...NO_FAULTS, latencyMs: 30 };
    const slow = watch('321');
    const other = watch('carrier_b');
    const answer = await gateway.graphql<Lines>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } } }`,
      { token, variables: { mdns: [...mdns, lineOnB] } },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.lines?.at(-1)).toMatchObject({ mdn: lineOnB, usage: { status: 'SUCCESS' } });
    expect(slow.peakInFlight()).toBe(BOUND);
    expect(other.total()).toBeGreaterThanOrEqual(1);
  });
});

describe('lines(mdns:): one line failing fails alone', () => {
  it('answers the good lines beside a refused number, another user’s line and a carrier that is down', async () => {
    const stranger = await gateway.user();
    const foreign = await seedLine(gateway, { register: false });
    await gateway.app.services.lines.record({ ...foreign, owner: stranger.user.id });
    const neverIssued = '3215550000';
    gateway.sandboxes.servers.carrier_b.faults = { ...NO_FAULTS, errorRate: 1 };
    const [good] = mdns as [string];

    const answer = await gateway.graphql<Lines>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status message } } }`,
      { token, variables: { mdns: [good, foreign.mdn, neverIssued, lineOnB] } },
    );
    expect(answer.status).toBe(200);
    const [ok, refusedLine, unknown, down] = answer.data!.lines!;
    expect(ok).toMatchObject({ mdn: good, usage: { status: 'SUCCESS' } });
    expect(refusedLine).toEqual({ mdn: foreign.mdn, usage: null });
    expect(unknown).toMatchObject({ mdn: neverIssued, usage: { status: 'FAILURE' } });
    expect(down).toEqual({ mdn: lineOnB, usage: null });
    const byPath = new Map(answer.errors?.map((error) => [JSON.stringify(error.path), error.extensions?.code]));
    expect(byPath.get(JSON.stringify(['lines', 1, 'usage']))).toBe('FORBIDDEN');
    expect(byPath.get(JSON.stringify(['lines', 3, 'usage']))).toMatch(/BAD_GATEWAY|CARRIER/);
    expect(answer.errors).toHaveLength(2);
  });
});
