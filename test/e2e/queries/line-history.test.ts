// A line's history on both surfaces (`line(mdn) { history }`, `lineHistory`, GET
// /sim/history/{mdn}): the line's transactions newest first with who made them and the
// outcome, cursor pages that hold still while new writes arrive, bad cursors and sizes refused
// (422) without effect, ownership as for every line operation, and only what the caller may see.

import { beforeAll, describe, expect, it } from 'vitest';
import '../../../src/graphql/dashboard.js';
import { NO_FAULTS } from '../../../src/sandbox/http-kit.js';
import { seedLine } from '../../support/lines.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { activationBody } from '../activation/activations.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway({ env: { CARRIER_RETRIES: '0' } });
beforeAll(async () => {
  await createPlans(gateway);
});

interface Entry {
  kind: string;
  at: string;
  carrier: string | null;
  sim: string | null;
  transaction: {
    id: string;
    operation: string;
    user: { id: string; name: string | null };
    status: string;
    httpStatus: number | null;
    answerMessage: string | null;
    errorCode: string | null;
    recovered: boolean;
  } | null;
}
interface Page {
  mdn: string;
  edges: { cursor: string; node: Entry }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null; hasPreviousPage: boolean; startCursor: string | null };
}

const PAGE = `mdn
  edges { cursor node { kind at carrier sim transaction { id operation user { id name } status httpStatus answerMessage errorCode recovered } } }
  pageInfo { hasNextPage endCursor hasPreviousPage startCursor }`;

async function historyOf(token: string, mdn: string, args: { first?: number; after?: string } = {}) {
  return gateway.graphql<{ line: { history: Page | null } | null }>(
    `query ($mdn: String!, $first: Int, $after: String) { line(mdn: $mdn) { history(first: $first, after: $after) { ${PAGE} } } }`,
    { token, variables: { mdn, ...args } },
  );
}

/** Activates a line through the gateway as `token`'s user. */
async function activate(token: string): Promise<{ mdn: string; sim: string; transactionId: string }> {
  const body = activationBody();
  const answer = await gateway.rest<{ mdn: string; transaction_id: string }>('POST', '/sim/activate/', { token, body });
  expect(answer.status).toBe(200);
  return { mdn: answer.body.mdn, sim: String(body.sim), transactionId: answer.body.transaction_id };
}

describe('a line’s history', () => {
  let owner: { token: string; id: string; name: string };
  let line: { mdn: string; sim: string; transactionId: string };

  beforeAll(async () => {
    const created = await gateway.user({ plans: ALL_PLANS });
    owner = { token: created.token, id: created.user.id, name: created.user.name };
    line = await activate(owner.token);
    expect((await gateway.rest('POST', '/sim/suspend/', { token: owner.token, body: { mdn: line.mdn } })).status).toBe(
      200,
    );
    // Suspending twice: the carrier refuses, and the refusal is history too.
    expect((await gateway.rest('POST', '/sim/suspend/', { token: owner.token, body: { mdn: line.mdn } })).status).toBe(
      400,
    );
    expect((await gateway.rest('POST', '/sim/restore/', { token: owner.token, body: { mdn: line.mdn } })).status).toBe(
      200,
    );
  });

  it('lists the transactions newest first, with who made them and the outcome, the activation included', async () => {
    const answer = await historyOf(owner.token, line.mdn);
    expect(answer.errors).toBeUndefined();
    const page = answer.data!.line!.history!;
    expect(page.edges.map((edge) => [edge.node.transaction?.operation, edge.node.transaction?.status])).toEqual([
      ['restoreLine', 'SUCCESS'],
      ['suspendLine', 'FAILURE'],
      ['suspendLine', 'SUCCESS'],
      ['activateSim', 'SUCCESS'],
    ]);
    const [restore, refusedSuspend, , activation] = page.edges.map((edge) => edge.node);
    expect(restore).toMatchObject({
      kind: 'TRANSACTION',
      carrier: 'CARRIER_321',
      transaction: {
        user: { id: owner.id, name: owner.name },
        httpStatus: 200,
        answerMessage: 'Success',
        errorCode: null,
        recovered: false,
      },
    });
    expect(refusedSuspend!.transaction).toMatchObject({ httpStatus: 400, errorCode: expect.any(String) });
    expect(refusedSuspend!.transaction!.answerMessage).toMatch(
      new RegExp(`\\(${refusedSuspend!.transaction!.errorCode}\\)$`),
    );
    expect(activation).toMatchObject({ sim: line.sim, transaction: { id: line.transactionId } });
    const times = page.edges.map((edge) => Date.parse(edge.node.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)!.cursor);
    // The activation's address (its stored request) is never shown.
    expect(JSON.stringify(answer.data)).not.toContain('Main St');
  });

  it('answers the same on REST (snake_case) and as the top-level lineHistory query', async () => {
    const rest = await gateway.rest<Record<string, unknown>>('GET', `/sim/history/${line.mdn}?first=2`, {
      token: owner.token,
    });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('ratelimit-policy') ?? rest.headers.get('ratelimit')).toBeTruthy();
    const graphql = await gateway.graphql<{ lineHistory: Page }>(
      `query ($mdn: String!) { lineHistory(mdn: $mdn, first: 2) { ${PAGE} } }`,
      { token: owner.token, variables: { mdn: line.mdn } },
    );
    const page = graphql.data!.lineHistory;
    const edges = rest.body.edges as { cursor: string; node: Record<string, unknown> }[];
    expect(edges.map((edge) => edge.cursor)).toEqual(page.edges.map((edge) => edge.cursor));
    expect(edges[0]!.node).toEqual({
      kind: 'transaction',
      at: page.edges[0]!.node.at,
      carrier: '321',
      sim: page.edges[0]!.node.sim,
      transaction: {
        id: page.edges[0]!.node.transaction!.id,
        operation: 'restoreLine',
        user: { id: owner.id, name: owner.name },
        status: 'success',
        http_status: 200,
        answer_message: 'Success',
        error_code: null,
        recovered: false,
      },
      // The line event the restore wrote, with the transaction that carries it.
      event: {
        id: expect.stringMatching(/^evt_/),
        type: 'line.restored',
        transaction_id: page.edges[0]!.node.transaction!.id,
        occurred_at: expect.any(String),
        data: expect.any(Object),
      },
    });
    expect(rest.body.page_info).toEqual({
      has_next_page: true,
      end_cursor: page.pageInfo.endCursor,
      has_previous_page: false,
      start_cursor: page.pageInfo.startCursor,
    });
  });

  it('pages with opaque cursors that hold still while new transactions arrive', async () => {
    const first = (await historyOf(owner.token, line.mdn, { first: 2 })).data!.line!.history!;
    expect(first.pageInfo.hasNextPage).toBe(true);
    // A newer write lands between two pages.
    expect((await gateway.rest('POST', '/sim/suspend/', { token: owner.token, body: { mdn: line.mdn } })).status).toBe(
      200,
    );
    const second = (await historyOf(owner.token, line.mdn, { first: 2, after: first.pageInfo.endCursor! })).data!.line!
      .history!;
    expect(second.edges.map((edge) => edge.node.transaction?.operation)).toEqual(['suspendLine', 'activateSim']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const seen = [...first.edges, ...second.edges].map((edge) => edge.node.transaction!.id);
    expect(new Set(seen).size).toBe(4);
    // The new write heads the list.
    const now = (await historyOf(owner.token, line.mdn, { first: 1 })).data!.line!.history!;
    expect(now.edges[0]!.node.transaction).toMatchObject({ operation: 'suspendLine', status: 'SUCCESS' });
    expect(seen).not.toContain(now.edges[0]!.node.transaction!.id);
  });

  it('orders transactions of the same millisecond by id, and pages through them without loss', async () => {
    const { token, user } = await gateway.user();
    const { mdn } = await seedLine(gateway);
    const at = new Date('2030-01-01T00:00:00.000Z');
    const ids = ['SAME_A', 'SAME_B', 'SAME_C'];
    for (const id of ids)
      await gateway.app.services.db.transaction.create({
        data: { id: `${id}_${mdn}`, userId: user.id, operation: 'suspendLine', mdn, status: 'success', createdAt: at },
      });
    const collected: string[] = [];
    let after: string | undefined;
    do {
      const page: Page = (await historyOf(token, mdn, { first: 1, after })).data!.line!.history!;
      collected.push(...page.edges.map((edge) => edge.node.transaction!.id));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor! : undefined;
    } while (after);
    expect(collected).toEqual(ids.reverse().map((id) => `${id}_${mdn}`));
  });
});

describe('refusals', () => {
  it('refuses a bad cursor or page size with 422 / BAD_USER_INPUT', async () => {
    const { token } = await gateway.user();
    const { mdn } = await seedLine(gateway);
    for (const query of [
      'after=not-a-cursor',
      `after=${Buffer.from('1:t:12:x y').toString('base64url')}`,
      'first=0',
      'first=101',
      'first=ten',
    ]) {
      const rest = await gateway.rest<{ detail: { loc: string[] }[] }>('GET', `/sim/history/${mdn}?${query}`, {
        token,
      });
      expect(rest.status, query).toBe(422);
      expect(rest.body.detail[0]!.loc).toEqual(['query', query.split('=')[0]]);
    }
    const graphql = await historyOf(token, mdn, { after: 'garbage' });
    expect(graphql.data?.line?.history).toBeNull();
    expect(graphql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect(graphql.errors?.[0]?.path).toEqual(['line', 'history']);
  });

  it('refuses another user’s line exactly as its other operations do; a superuser sees every entry', async () => {
    const owner = await gateway.user({ plans: ALL_PLANS });
    const stranger = await gateway.user();
    const admin = await gateway.user({ superuser: true });
    const { mdn } = await activate(owner.token);

    const history = await gateway.rest('GET', `/sim/history/${mdn}`, { token: stranger.token });
    const usage = await gateway.rest('GET', `/sim/usage/${mdn}`, { token: stranger.token });
    expect(history.status).toBe(403);
    expect(history.body).toEqual(usage.body);
    const graphql = await historyOf(stranger.token, mdn);
    expect(graphql.data?.line?.history).toBeNull();
    expect(graphql.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });

    const seen = (await historyOf(admin.token, mdn)).data!.line!.history!;
    expect(seen.edges.map((edge) => edge.node.transaction!.user.id)).toEqual([owner.user.id]);
  });

  it('has its own per-minute limit (60), counted per user', async () => {
    const { token } = await gateway.user();
    const { mdn } = await seedLine(gateway);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await gateway.rest('GET', `/sim/history/${mdn}`, { token })).status);
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

describe('what each caller sees', () => {
  it('shows on a line with no owner only the caller’s own transactions; its owner, theirs and superusers’', async () => {
    const first = await gateway.user();
    const second = await gateway.user();
    const admin = await gateway.user({ superuser: true });
    const line = await seedLine(gateway); // known, nobody's: every user may act on it
    for (const who of [first, second, admin])
      expect(
        (await gateway.rest('POST', '/sim/suspend/', { token: who.token, body: { mdn: line.mdn } })).status,
      ).toBeLessThan(500);
    const usersIn = async (token: string) =>
      (await historyOf(token, line.mdn)).data!.line!.history!.edges.map((edge) => edge.node.transaction!.user.id);
    expect(await usersIn(first.token)).toEqual([first.user.id]);
    expect(await usersIn(second.token)).toEqual([second.user.id]);
    expect(await usersIn(admin.token)).toEqual([admin.user.id, second.user.id, first.user.id]);

    // The line is given to the first user: they now see their own and the superuser's, never the second user's.
    await gateway.app.services.lines.record({ ...line, owner: first.user.id });
    expect(await usersIn(first.token)).toEqual([admin.user.id, first.user.id]);
  });

  it('shows pending, unknown, error and recovered transactions with their status', async () => {
    const { token, user } = await gateway.user();
    const { mdn, sim } = await seedLine(gateway);
    const log = gateway.app.services.transactions;
    const row = (id: string) => ({
      id: `${id}_${mdn}`,
      userId: user.id,
      operation: 'suspendLine',
      carrier: '321',
      mdn,
      sim,
    });
    await log.reserve(row('PENDING'));
    await log.reserve(row('LOST'));
    // A fault as releases before 400-for-faults stored it (504, `code: HTTP_504`): still read.
    await log.complete(`LOST_${mdn}`, 'unknown', 504, {
      status: 'failure',
      message: 'Carrier timed out',
      code: 'HTTP_504',
    });
    await log.reserve(row('RECOVERED'));
    await log.complete(`RECOVERED_${mdn}`, 'success', 200, { status: 'success', message: 'Success' });
    await gateway.app.services.db.transaction.update({
      where: { id: `RECOVERED_${mdn}` },
      data: { resolvedAt: new Date() },
    });
    // And a real carrier fault: the carrier answers 503 to everything.
    gateway.sandboxes.servers['321'].faults = { ...NO_FAULTS, errorRate: 1 };
    try {
      expect((await gateway.rest('POST', '/sim/restore/', { token, body: { mdn } })).status).toBe(400);
    } finally {
      gateway.sandboxes.servers['321'].faults = NO_FAULTS;
    }

    const entries = (await historyOf(token, mdn)).data!.line!.history!.edges.map((edge) => edge.node.transaction!);
    const byId = new Map(entries.map((entry) => [entry.id.replace(`_${mdn}`, ''), entry]));
    expect(byId.get('PENDING')).toMatchObject({
      status: 'PENDING',
      httpStatus: null,
      answerMessage: null,
      errorCode: null,
    });
    expect(byId.get('LOST')).toMatchObject({ status: 'UNKNOWN', httpStatus: 504, errorCode: 'HTTP_504' });
    expect(byId.get('RECOVERED')).toMatchObject({ status: 'SUCCESS', recovered: true });
    const fault = entries.find((entry) => entry.operation === 'restoreLine')!;
    expect(['ERROR', 'UNKNOWN', 'SUCCESS']).toContain(fault.status);
    expect([null, 'CARRIER_UNAVAILABLE']).toContain(fault.errorCode);
  });
});

describe('line events in the history', () => {
  const EVENT_PAGE = `edges { cursor node { kind transaction { id operation } event { id type transactionId data } } }
    pageInfo { hasNextPage endCursor }`;
  interface EventPage {
    edges: {
      cursor: string;
      node: {
        kind: string;
        transaction: { id: string; operation: string } | null;
        event: { id: string; type: string; transactionId: string | null; data: Record<string, unknown> } | null;
      };
    }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  }
  const pageOf = async (token: string, mdn: string, after?: string) => {
    const answer = await gateway.graphql<{ lineHistory: EventPage }>(
      `query ($mdn: String!, $after: String) { lineHistory(mdn: $mdn, first: 1, after: $after) { ${EVENT_PAGE} } }`,
      { token, variables: { mdn, ...(after ? { after } : {}) } },
    );
    expect(answer.errors).toBeUndefined();
    return answer.data!.lineHistory;
  };

  it('carries each write’s event, and shows an MDN swap under the new number as an event entry', async () => {
    const { token } = await gateway.user({ plans: ALL_PLANS });
    const line = await activate(token);
    const swap = await gateway.rest<{ new_mdn: string; transaction_id: string }>('POST', '/sim/mdn/swap/', {
      token,
      body: { mdn: line.mdn, sim: line.sim, zip_code: '30301' },
    });
    expect(swap.status).toBe(200);
    const newMdn = swap.body.new_mdn;
    expect((await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: newMdn } })).status).toBe(200);

    // The new number, one entry a page: its suspension (with its event), then the swap's event.
    const first = await pageOf(token, newMdn);
    expect(first.edges[0]!.node).toMatchObject({
      kind: 'TRANSACTION',
      transaction: { operation: 'suspendLine' },
      event: { type: 'line.suspended' },
    });
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await pageOf(token, newMdn, first.pageInfo.endCursor!);
    expect(second.edges[0]!.node).toMatchObject({
      kind: 'EVENT',
      transaction: null,
      event: {
        type: 'line.mdn_swapped',
        transactionId: swap.body.transaction_id,
        data: { previousMdn: line.mdn, newMdn },
      },
    });
    expect(second.pageInfo.hasNextPage).toBe(false);

    // The old number: the swap transaction carries that same event; the activation its own.
    const old = await gateway.graphql<{ lineHistory: EventPage }>(
      `query ($mdn: String!) { lineHistory(mdn: $mdn) { ${EVENT_PAGE} } }`,
      { token, variables: { mdn: line.mdn } },
    );
    const nodes = old.data!.lineHistory.edges.map((edge) => edge.node);
    expect(nodes.map((node) => [node.kind, node.transaction?.operation, node.event?.type])).toEqual([
      ['TRANSACTION', 'swapMdn', 'line.mdn_swapped'],
      ['TRANSACTION', 'activateSim', 'line.activated'],
    ]);
    expect(nodes[0]!.event!.id).toBe(second.edges[0]!.node.event!.id);
  });

  it('shows another caller’s event entries only to those who may see their requests', async () => {
    const owner = await gateway.user({ plans: ALL_PLANS });
    const line = await activate(owner.token);
    const swap = await gateway.rest<{ new_mdn: string }>('POST', '/sim/mdn/swap/', {
      token: owner.token,
      body: { mdn: line.mdn, sim: line.sim, zip_code: '30301' },
    });
    // Given away with its new number: the new owner does not see the previous holder's swap.
    const other = await gateway.user({ plans: ALL_PLANS });
    const admin = await gateway.user({ superuser: true });
    const assigned = await gateway.graphql(
      'mutation ($input: AssignLineOwnerInput!) { assignLineOwner(input: $input) { mdn } }',
      {
        token: admin.token,
        variables: { input: { mdn: swap.body.new_mdn, user: other.user.name } },
      },
    );
    expect(assigned.errors).toBeUndefined();
    expect((await pageOf(other.token, swap.body.new_mdn)).edges).toEqual([]);
    expect((await pageOf(admin.token, swap.body.new_mdn)).edges[0]!.node.event!.type).toBe('line.mdn_swapped');
  });
});
