// Regression (audit): variable default values got around GraphQL's cost limit and budget. A
// document whose `lines(mdns:)` lists came from the defaults of variables left out of the
// request was priced at 0 (20 lists × 50 MDNs × 4 fields: 4000 carrier calls for 0 points), on
// both lanes. Now a request is priced with its variables as execution coerces them, and it can
// never make more carrier calls than its price: a call beyond is refused on its field
// (QUERY_TOO_COSTLY) and the budget charges what was spent. Both lanes answer each request: the
// gateway with the direct lane, and a Yoga-only gateway on the same services (database, budget,
// sandbox carriers), as test/graphql/direct-lane.test.ts builds it.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CostExtension } from '../../src/graphql/use-cost-budget.js';
import { buildSchema } from '../../src/graphql/schema.js';
import { CARRIER_CALLS } from '../../src/graphql/query-cost.js';
import type { Logger } from '../../src/lib/logger.js';
import { createGateway, type Gateway } from '../../src/server.js';
import { eventually } from '../support/eventually.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';

interface Answer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
    extensions?: { cost?: CostExtension };
  };
}

/** The lane that answered each /graphql request of the lane-on gateway, from its access lines. */
const lanes: string[] = [];
const warnings: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: (message, fields) => {
    if (message === 'request' && fields?.route === '/graphql') lanes.push(String(fields.lane ?? 'none'));
  },
  warn: (message) => void warnings.push(message),
  error: () => undefined,
};

let gateway: TestGateway;
let yogaOnly: Gateway;
let user: { id: string; token: string };
let mdns: string[];

const T0 = 1_800_000_000_000;

beforeAll(async () => {
  gateway = await startGateway({ logger });
  const { services } = gateway.app;
  yogaOnly = createGateway(
    { ...services, config: { ...services.config, GRAPHQL_DIRECT_LANE: 'off' } },
    { ready: () => true },
  );
  // The budget's clock stands still: what a request is charged is what the bucket loses.
  services.costBudget.now = () => T0;
  const created = await gateway.user();
  user = { id: created.user.id, token: created.token };
  mdns = [];
  for (let i = 0; i < 3; i++) mdns.push((await seedLine(gateway)).mdn);
}, 60_000);
afterAll(async () => {
  await yogaOnly.close(100);
  await gateway.close();
});
afterEach(async () => {
  const { costBudget } = gateway.app.services;
  await costBudget.refund(user.id, costBudget.capacity);
});

const LANES = [
  ['the direct lane', 'direct'],
  ['Yoga', 'yoga'],
] as const;
type Lane = (typeof LANES)[number][1];

/** POSTs `body` as JSON to /graphql of the lane-on gateway (`direct`) or the Yoga-only one; answers which lane took it. */
async function post(lane: Lane, body: unknown): Promise<Answer & { lane: string }> {
  const target = lane === 'direct' ? gateway.handle : yogaOnly.handle;
  lanes.length = 0;
  const response = await target(
    new Request('http://gateway.in-process/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        // As modern clients ask: a request refused whole is answered with its own status.
        accept: 'application/graphql-response+json',
        authorization: `Bearer ${user.token}`,
      },
      body: JSON.stringify(body),
    }),
  );
  const answer = { status: response.status, body: (await response.json()) as Answer['body'] };
  if (lane === 'yoga') return { ...answer, lane: 'yoga' };
  expect(await eventually(async () => lanes.length === 1, 5_000)).toBe(true);
  return { ...answer, lane: lanes[0]! };
}

/** Points left in the caller's bucket. */
async function available(): Promise<number> {
  return (await gateway.app.services.costBudget.take(user.id, 0)).status.currentlyAvailable;
}

/** HTTP calls the gateway made to the (sandbox) carriers so far, as its carrier-call histogram counts them. */
async function carrierCalls(): Promise<number> {
  const metric = await gateway.app.services.metrics.carrierCalls.get();
  return metric.values
    .filter((value) => value.metricName === 'line_gateway_carrier_call_duration_seconds_count')
    .reduce((sum, value) => sum + value.value, 0);
}

const list = (values: readonly string[]) => `[${values.map((mdn) => `"${mdn}"`).join(', ')}]`;
/** `count` distinct MDNs, none of them seeded. */
const unknownMdns = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `32156${String(from + i).padStart(5, '0')}`);

/** The audit's document: `aliases` lists of `perList` MDNs, each a variable's default, × 4 carrier fields. */
function auditDocument(aliases: number, perList: number): string {
  const definitions = Array.from(
    { length: aliases },
    (_, i) => `$m${i}: [String!]! = ${list(unknownMdns(perList, i * perList))}`,
  );
  const fields = Array.from(
    { length: aliases },
    (_, i) =>
      `a${i}: lines(mdns: $m${i}) { usage { status } networkStatus { status } carrierUsage { status } service { status } }`,
  );
  return `query (${definitions.join(', ')}) { ${fields.join(' ')} }`;
}

describe.each(LANES)('variable defaults are priced, through %s', (_name, lane) => {
  it("refuses the audit's reproduction sent without variables: 400 QUERY_TOO_COSTLY, no carrier called, nothing charged", async () => {
    const before = { calls: await carrierCalls(), available: await available() };
    const answer = await post(lane, { query: auditDocument(20, 50) });
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors![0]!.extensions).toMatchObject({
      code: 'QUERY_TOO_COSTLY',
      status: 400,
      cost: 4000,
      maxCost: 100,
    });
    // The direct lane priced it over the maximum too, and left the refusal to Yoga.
    expect(answer.lane).toBe('yoga');
    expect({ calls: await carrierCalls(), available: await available() }).toEqual(before);
  });

  it('refuses a document just over the maximum by its defaults (50 MDNs × 3 fields), and an empty variables object changes nothing', async () => {
    const query = `query ($m: [String!]! = ${list(unknownMdns(50))}) { lines(mdns: $m) { usage { status } networkStatus { status } service { status } } }`;
    for (const body of [{ query }, { query, variables: {} }, { query, variables: null }]) {
      const answer = await post(lane, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors![0]!.extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY', cost: 150 });
    }
  });

  it('prices a default within the maximum and runs it, charging the calls made', async () => {
    const query = `query ($m: [String!]! = ${list(mdns)}, $withNetwork: Boolean = true) { lines(mdns: $m) { mdn usage { status } networkStatus @include(if: $withNetwork) { status } } }`;
    const before = { calls: await carrierCalls(), available: await available() };
    const answer = await post(lane, { query });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const lines = answer.body.data!.lines as { mdn: string; usage: unknown; networkStatus: unknown }[];
    expect(lines.map((line) => line.mdn)).toEqual(mdns);
    expect(lines.every((line) => line.usage !== null && line.networkStatus !== null)).toBe(true);
    expect(answer.lane).toBe(lane);
    expect(answer.body.extensions!.cost).toEqual({
      requestedQueryCost: 6,
      actualQueryCost: 6,
      throttleStatus: { maximumAvailable: 1000, currentlyAvailable: before.available - 6, restoreRate: 50 },
    });
    expect(await available()).toBe(before.available - 6);
    expect((await carrierCalls()) - before.calls).toBe(6);
    // A value given wins over the default, for the list and for the directive.
    const given = await post(lane, { query, variables: { m: mdns.slice(0, 1), withNetwork: false } });
    expect(given.body.extensions!.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 1 });
  });

  it('takes the price of defaults from the budget: a second request the bucket no longer holds is refused whole (429)', async () => {
    const { costBudget } = gateway.app.services;
    // Leave 10 points in the bucket (its clock stands still).
    await costBudget.take(user.id, (await available()) - 10);
    const query = `query ($m: [String!]! = ${list(mdns)}) { lines(mdns: $m) { usage { status } networkStatus { status } } }`;
    const first = await post(lane, { query });
    expect(first.status).toBe(200);
    expect(first.body.extensions!.cost).toMatchObject({
      requestedQueryCost: 6,
      actualQueryCost: 6,
      throttleStatus: { currentlyAvailable: 4 },
    });
    const calls = await carrierCalls();
    const second = await post(lane, { query });
    expect(second.status).toBe(429);
    expect(second.body.data).toBeUndefined();
    expect(second.body.errors![0]!.extensions).toMatchObject({ code: 'THROTTLED', cost: 6, available: 4 });
    expect(await carrierCalls()).toBe(calls);
  });

  it('prices the service record a SIM field reads, so that the field runs within its price', async () => {
    const query = `query ($m: String! = "${mdns[0]}") { line(mdn: $m) { simDetails { status sim } } }`;
    const before = await carrierCalls();
    const answer = await post(lane, { query });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toMatchObject({ line: { simDetails: { status: 'SUCCESS' } } });
    // The service record, then the SIM's details.
    expect(answer.body.extensions!.cost).toMatchObject({ requestedQueryCost: 2, actualQueryCost: 2 });
    expect((await carrierCalls()) - before).toBe(2);
  });
});

describe.each(LANES)('a request never makes more carrier calls than its price, through %s', (_name, lane) => {
  // The price list is an upper bound by construction; to see the pipeline hold a request to its
  // price, a field's price is made to miss its call (restored after each test).
  const schema = buildSchema();
  const extensionsOf = (type: 'Query' | 'Mutation' | 'Line', field: string) =>
    (
      schema.getType(type) as unknown as { getFields(): Record<string, { extensions: Record<string, unknown> }> }
    ).getFields()[field]!.extensions;
  let restore: (() => void) | undefined;
  const priceAtZero = (type: 'Query' | 'Mutation' | 'Line', field: string) => {
    const extensions = extensionsOf(type, field);
    const price = extensions[CARRIER_CALLS];
    extensions[CARRIER_CALLS] = 0;
    restore = () => (extensions[CARRIER_CALLS] = price);
  };
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it('refuses the call over the price on its field (QUERY_TOO_COSTLY) and charges only the calls made', async () => {
    priceAtZero('Line', 'usage');
    const query = `query Overpriced_${lane}($m: String!) { line(mdn: $m) { usage { status } networkStatus { status } } }`;
    const before = { calls: await carrierCalls(), available: await available() };
    warnings.length = 0;
    const answer = await post(lane, { query, variables: { m: mdns[1] } });
    // Priced 1 (networkStatus): one of the two fields makes its call, the other is refused.
    expect(answer.status).toBe(200);
    expect(answer.lane).toBe(lane);
    const line = answer.body.data!.line as Record<string, unknown>;
    expect([line.usage, line.networkStatus].filter((field) => field === null)).toHaveLength(1);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors![0]).toMatchObject({
      path: ['line', line.usage === null ? 'usage' : 'networkStatus'],
      extensions: { code: 'QUERY_TOO_COSTLY', status: 400, cost: 1 },
    });
    expect(answer.body.errors![0]!.message).toMatch(/priced at 1 carrier calls and has made them all/);
    expect(answer.body.extensions!.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 1 });
    expect((await carrierCalls()) - before.calls).toBe(1);
    expect(await available()).toBe(before.available - 1);
    // A price short of the calls is a gap in the price list: said once per request.
    expect(warnings.filter((message) => message.startsWith('carrier call refused'))).toHaveLength(1);
  });

  it('refuses a write over the price before anything is recorded: no transaction, nothing sent', async () => {
    const { mdn } = await seedLine(gateway);
    priceAtZero('Mutation', 'suspendLine');
    const transactionId = `OVERPRICED_${lane}_${Date.now()}`;
    const suspend = {
      query: 'mutation ($input: SuspendLineInput!) { suspendLine(input: $input) { status } }',
      variables: { input: { mdn, transactionId } },
    };
    const before = await carrierCalls();
    const answer = await post(lane, suspend);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ suspendLine: null });
    expect(answer.body.errors![0]!.extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY', cost: 0 });
    expect(answer.body.extensions!.cost).toMatchObject({ requestedQueryCost: 0, actualQueryCost: 0 });
    expect(await carrierCalls()).toBe(before);
    expect(await gateway.app.services.transactions.find(transactionId)).toBeNull();
    // Priced as it should be, the same write under the same id runs: the refusal used nothing up.
    // (Another document: the direct lane keeps the price of one that reads no variable.)
    restore!();
    const retried = await post(lane, { ...suspend, query: suspend.query.replace('mutation', 'mutation Retry') });
    expect(retried.body.errors).toBeUndefined();
    expect(retried.body.data).toEqual({ suspendLine: { status: 'SUCCESS' } });
    expect(retried.body.extensions!.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 1 });
    // Once more: the id is taken (409), no call is made, and none is charged.
    const again = await post(lane, { ...suspend, query: suspend.query.replace('mutation', 'mutation Again') });
    expect(again.body.errors![0]!.extensions).toMatchObject({ code: 'DUPLICATE_TRANSACTION' });
    expect(again.body.extensions!.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 0 });
  });
});
