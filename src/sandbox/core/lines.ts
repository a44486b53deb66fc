// Finding a line by MDN the way a carrier does: foreign numbers (909), numbers it never
// issued or has given away (918), and lines that are disconnected (915).

import { reject, type RejectionCode } from './rejections.js';
import type { CoreContext, LineRecord } from './state.js';
import { isForeignMdn } from './test-values.js';

/** The line behind `mdn`, in any state, disconnected included. */
export function findLine(ctx: CoreContext, mdn: string): LineRecord {
  if (isForeignMdn(mdn)) reject('909');
  const line = ctx.state.lines.get(mdn);
  if (!line) reject('918');
  return line;
}

/** The line behind `mdn`, which must not be disconnected. */
export function requireLine(ctx: CoreContext, mdn: string): LineRecord {
  const line = findLine(ctx, mdn);
  if (line.status === 'DISCONNECTED') reject('915');
  return line;
}

/** The line behind `mdn`, which must be ACTIVE (a suspended line counts as inactive). */
export function requireActiveLine(ctx: CoreContext, mdn: string): LineRecord {
  const line = requireLine(ctx, mdn);
  if (line.status !== 'ACTIVE') reject('915');
  return line;
}

/** Verifies a caller-supplied ICCID against the line's; absent means "not verified". */
export function verifySim(line: LineRecord, sim: string | undefined, code: RejectionCode): void {
  if (sim !== undefined && sim !== line.sim) reject(code);
}
