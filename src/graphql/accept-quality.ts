// Yoga chooses a response's media type from the Accept header without reading quality values,
// so `application/graphql-response+json;q=0, application/json` would get the type the client
// refused. Before Yoga (or the direct lane) reads it, the header is rewritten into what Yoga does
// read: the ranges a client accepts (q > 0), most preferred first, without their q. A header that
// accepts nothing Yoga can answer in is refused 406 (use-not-acceptable.ts).

import type { IncomingMessage } from 'node:http';
import { weightedEntries } from '../http/quality-values.js';

/** What a header that refuses every range becomes: a type no result processor offers (406). */
const NOTHING_ACCEPTABLE = 'application/x-nothing-acceptable';

/** The Accept header with quality values applied, or the header itself when it has none. */
export function withQualityApplied(accept: string): string {
  if (!/;\s*q\s*=/i.test(accept)) return accept;
  const ranges = weightedEntries(accept).filter((entry) => entry.quality > 0);
  if (ranges.length === 0) return NOTHING_ACCEPTABLE;
  // Stable: equal qualities keep the client's order.
  ranges.sort((a, b) => b.quality - a.quality);
  return ranges.map((range) => [range.value, ...range.parameters].join(';')).join(', ');
}

/** Rewrites the request's Accept header in place (see above). */
export function applyAcceptQuality(request: IncomingMessage): void {
  const accept = request.headers.accept;
  if (accept !== undefined) request.headers.accept = withQualityApplied(accept);
}
