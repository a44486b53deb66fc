// A carrier may give a number back to its pool without this gateway seeing the line go (a
// disconnect or port-out made elsewhere) and hand it to the next activation. That activation is
// the carrier's word: the number is the new line's, its owner the user who activated it, and the
// previous owner keeps only their old SIM's record.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { activate, expectRestRefusal, startOwnershipGateway, type Caller, type Line } from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let b: Caller;
let aLine: Line;
let bLine: Line;

beforeAll(async () => {
  ({ gateway, a, b } = await startOwnershipGateway());
  aLine = await activate(gateway, a);
  // The carrier forgets every line and starts its number pool again: its next number is A's.
  gateway.sandboxes.cores['321'].reset();
  bLine = await activate(gateway, b);
});
afterAll(() => gateway.close());

it('the recycled number is the new activation’s line', async () => {
  expect(bLine.mdn).toBe(aLine.mdn);
  expect(bLine.sim).not.toBe(aLine.sim);
  expect((await gateway.rest('GET', `/sim/usage/${bLine.mdn}`, { token: b.token })).status).toBe(200);
  const me = await gateway.graphql<{ me: { lines: { mdn: string }[] } }>('{ me { lines { mdn } } }', {
    token: b.token,
  });
  expect(me.data?.me.lines.map((line) => line.mdn)).toEqual([bLine.mdn]);
  // The activation's event is the new owner's (their streams and history), not the old one's.
  const events = await gateway.app.services.db.lineEvent.findMany({ where: { mdn: bLine.mdn, sim: bLine.sim } });
  expect(events.map((event) => [event.type, event.ownerId])).toEqual([['line.activated', b.user.id]]);
});

it('the previous owner is refused the new line and its SIM, and keeps their old SIM', async () => {
  expectRestRefusal(await gateway.rest('GET', `/sim/usage/${bLine.mdn}`, { token: a.token }), b.user);
  expectRestRefusal(await gateway.rest('GET', `/sim/details/${bLine.sim}`, { token: a.token }), b.user);
  const suspend = await gateway.rest('POST', '/sim/suspend/', { token: a.token, body: { mdn: bLine.mdn } });
  expectRestRefusal(suspend, b.user);
  expect((await gateway.sandboxes.cores['321'].getServiceProfile(bLine.mdn)).lineStatus).toBe('ACTIVE');
  expectRestRefusal(await gateway.rest('GET', `/sim/details/${aLine.sim}`, { token: b.token }), a.user);
  const me = await gateway.graphql<{ me: { lines: { mdn: string }[] } }>('{ me { lines { mdn } } }', {
    token: a.token,
  });
  expect(me.data?.me.lines).toEqual([]);
});
