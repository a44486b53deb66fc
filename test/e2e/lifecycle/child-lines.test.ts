// Child lines of shared (family) plans over real HTTP against the sandbox carriers, REST and
// GraphQL: add and remove answer for the parent number, are routed by the parent's line, and
// refuse with the spec's codes and 422s.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, expectSameOutcome, graphqlMutation } from '../../support/surfaces.js';
import { seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const post = (path: string, body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', path, { token: as, body });
const family = (parent: SeededLine, child: SeededLine, extra: Record<string, unknown> = {}) => ({
  parent_mdn: parent.mdn,
  parent_sim: parent.sim,
  child_mdn: child.mdn,
  child_sim: child.sim,
  ...extra,
});
const familyInput = (parent: SeededLine, child: SeededLine) => ({
  parentMdn: parent.mdn,
  parentSim: parent.sim,
  childMdn: child.mdn,
  childSim: child.sim,
});
/** The members of the parent's account, as the carrier (321, extended) sees them. */
const members = async (parent: SeededLine) =>
  (await gateway.sandboxes.cores['321'].extended!.getAccount(parent.mdn)).lines.map((line) => line.mdn);

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

describe('add and remove', () => {
  it('adds a child line, refuses it twice (GENS-0010), removes it, refuses a second removal (918)', async () => {
    const [parent, child] = [await seedLine(gateway), await seedLine(gateway)];
    const added = await post('/sim/line/add/', family(parent, child));
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      status: 'success',
      mdn: parent.mdn,
      transaction_id: expect.stringMatching(/^ADD_LINE_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(await members(parent)).toEqual([parent.mdn, child.mdn]);

    const twice = await post('/sim/line/add/', family(parent, child));
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      status: 'failure',
      mdn: parent.mdn,
      transaction_id: expect.stringMatching(/^ADD_LINE_/),
      message: expect.stringMatching(/\(GENS-0010\)$/),
    });

    const removed = await post('/sim/line/remove/', family(parent, child, { child_sim: undefined }));
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      status: 'success',
      mdn: parent.mdn,
      transaction_id: expect.stringMatching(/^REM_LINE_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(await members(parent)).toEqual([parent.mdn]);

    const again = await post('/sim/line/remove/', family(parent, child));
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      status: 'failure',
      mdn: parent.mdn,
      message: expect.stringMatching(/\(918\)$/),
    });
  });

  it('gives the same outcomes on GraphQL', async () => {
    const [restParent, restChild, parent, child] = [
      await seedLine(gateway),
      await seedLine(gateway),
      await seedLine(gateway),
      await seedLine(gateway),
    ];
    for (const [field, path] of [
      ['addChildLine', '/sim/line/add/'],
      ['addChildLine', '/sim/line/add/'],
      ['removeChildLine', '/sim/line/remove/'],
      ['removeChildLine', '/sim/line/remove/'],
    ] as const) {
      const rest = await post(path, family(restParent, restChild));
      const graphql = await graphqlMutation(gateway, field, familyInput(parent, child), token);
      expectSameOutcome({ ...rest, body: { ...rest.body, mdn: parent.mdn } }, graphql, field);
    }
  });
});

describe('refusals', () => {
  it.each([
    [
      '918',
      "a parent SIM that is not the parent's",
      async (parent: SeededLine, child: SeededLine) => family(parent, child, { parent_sim: child.sim }),
    ],
    [
      '918',
      'an unknown parent number',
      async (parent: SeededLine, child: SeededLine) => family(parent, child, { parent_mdn: '5550001234' }),
    ],
    [
      '909',
      "another vendor's parent number",
      async (parent: SeededLine, child: SeededLine) => family(parent, child, { parent_mdn: '9095550000' }),
    ],
    [
      '915',
      'a disconnected child',
      async (parent: SeededLine, child: SeededLine) => {
        await gateway.sandboxes.cores['321'].disconnect({
          mdn: child.mdn,
          sim: child.sim,
          transactionId: `DISC_${child.sim}`,
        });
        return family(parent, child);
      },
    ],
    ['GENS-0010', 'the parent as its own child', async (parent: SeededLine) => family(parent, parent)],
  ])('add answers %s for %s, with the parent number', async (code, _what, bodyOf) => {
    const { token: own } = await gateway.user();
    const [parent, child] = [await seedLine(gateway), await seedLine(gateway)];
    const body = await bodyOf(parent, child);
    const rest = await post('/sim/line/add/', body, own);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: body.parent_mdn,
      transaction_id: expect.stringMatching(/^ADD_LINE_/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });

  it.each([
    ['/sim/line/add/', { parent_mdn: '321555' }, 'parent_mdn', 'value_error', 'parent_mdn must be exactly 10 digits'],
    ['/sim/line/add/', { child_mdn: 'abcdefghij' }, 'child_mdn', 'value_error', 'child_mdn must be exactly 10 digits'],
    [
      '/sim/line/add/',
      { parent_sim: 'bad sim' },
      'parent_sim',
      'value_error',
      'parent_sim must be alphanumeric, at most 25 characters',
    ],
    [
      '/sim/line/add/',
      { child_sim: '9'.repeat(26) },
      'child_sim',
      'value_error',
      'child_sim must be alphanumeric, at most 25 characters',
    ],
    ['/sim/line/add/', { parent_sim: undefined }, 'parent_sim', 'missing', 'Field required'],
    ['/sim/line/add/', { child_mdn: undefined }, 'child_mdn', 'missing', 'Field required'],
    ['/sim/line/remove/', { parent_mdn: undefined }, 'parent_mdn', 'missing', 'Field required'],
    [
      '/sim/line/remove/',
      { child_sim: 'x-y' },
      'child_sim',
      'value_error',
      'child_sim must be alphanumeric, at most 25 characters',
    ],
  ])('%s refuses %j with 422 and changes nothing', async (path, change, field, type, msg) => {
    const { token: own } = await gateway.user();
    const [parent, child] = [await seedLine(gateway), await seedLine(gateway)];
    const rest = await post(path, family(parent, child, change), own);
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    expect(await members(parent)).toEqual([parent.mdn]);
  });

  it('refuses a malformed child number with BAD_USER_INPUT on GraphQL', async () => {
    const [parent, child] = [await seedLine(gateway), await seedLine(gateway)];
    const graphql = await graphqlMutation(
      gateway,
      'addChildLine',
      { ...familyInput(parent, child), childMdn: '12' },
      token,
    );
    expectBadInput(graphql, ['childMdn'], 'value_error', 'childMdn must be exactly 10 digits');
  });

  it('answers 401 without a token, on both surfaces', async () => {
    const [parent, child] = [await seedLine(gateway), await seedLine(gateway)];
    for (const [field, path] of [
      ['addChildLine', '/sim/line/add/'],
      ['removeChildLine', '/sim/line/remove/'],
    ] as const) {
      expect((await gateway.rest('POST', path, { body: family(parent, child) })).status).toBe(401);
      expect((await graphqlMutation(gateway, field, familyInput(parent, child))).errors?.[0]?.extensions?.code).toBe(
        'UNAUTHENTICATED',
      );
    }
  });
});
