// Shared-plan families: an ACTIVE parent with ACTIVE child lines, one level deep, each child
// on at most one parent.

import type { ChildLineRequest } from '../../carriers/types.js';
import { requireLine, verifySim } from './lines.js';
import { reject } from './rejections.js';
import type { CoreContext, LineRecord } from './state.js';
import { recordActivity } from './usage-records.js';

export function addChildLine(ctx: CoreContext, request: ChildLineRequest): void {
  const parent = requireLine(ctx, request.parentMdn);
  if (parent.status !== 'ACTIVE') reject('915');
  verifySim(parent, request.parentSim, '918');
  const child = requireLine(ctx, request.childMdn);
  if (child.status !== 'ACTIVE') reject('915');
  verifySim(child, request.childSim, '918');
  if (child === parent) reject('GENS-0010', 'Duplicate products: a line cannot be its own child line');
  if (child.parentMdn === parent.mdn)
    reject('GENS-0010', 'Duplicate products: the line is already a child line of this account');
  if (child.parentMdn !== null)
    reject('GENS-0010', 'Duplicate products: the line is already a child line of another account');
  if (child.childMdns.length > 0) reject('GENS-0010', 'Duplicate products: the line has child lines of its own');
  if (parent.parentMdn !== null) reject('GENS-0010', 'Duplicate products: a child line cannot have child lines');
  parent.childMdns.push(child.mdn);
  child.parentMdn = parent.mdn;
  recordActivity(ctx, parent);
}

export function removeChildLine(ctx: CoreContext, request: ChildLineRequest): void {
  const parent = requireLine(ctx, request.parentMdn);
  verifySim(parent, request.parentSim, '918');
  const child = requireLine(ctx, request.childMdn);
  if (child.parentMdn !== parent.mdn)
    reject('918', 'Subscriber with given resource does not exist: not a child line of this account');
  verifySim(child, request.childSim, '918');
  parent.childMdns = parent.childMdns.filter((mdn) => mdn !== child.mdn);
  child.parentMdn = null;
  recordActivity(ctx, parent);
}

/** Cuts a line out of its family (used when it is disconnected). */
export function detachFamily(ctx: CoreContext, line: LineRecord): void {
  const { lines } = ctx.state;
  const parent = line.parentMdn === null ? undefined : lines.get(line.parentMdn);
  if (parent) parent.childMdns = parent.childMdns.filter((mdn) => mdn !== line.mdn);
  line.parentMdn = null;
  for (const childMdn of line.childMdns) {
    const child = lines.get(childMdn);
    if (child) child.parentMdn = null;
  }
  line.childMdns = [];
}
