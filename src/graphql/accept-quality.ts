// Yoga chooses a response's media type from the Accept header without reading quality values,
// so `application/graphql-response+json;q=0, application/json` would get the type the client
// refused. Before Yoga (or the direct lane) reads it, the header is rewritten into what Yoga does
// read: the ranges a client accepts (q > 0), most preferred first, without their q. A header that
// accepts nothing Yoga can answer in is left to Yoga's 406.

import type { IncomingMessage } from 'node:http';

/** What a header that refuses every range becomes: a type no result processor offers (406). */
const NOTHING_ACCEPTABLE = 'application/x-nothing-acceptable';

interface Range {
  text: string;
  quality: number;
  order: number;
}

/** The quality of a range's parameters (`q=0.5`); 1 when absent or malformed (RFC 9110 §12.4.2). */
function qualityOf(parameters: readonly string[]): { quality: number; rest: string[] } {
  let quality = 1;
  const rest: string[] = [];
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=', 2).map((part) => part.trim());
    if (name?.toLowerCase() === 'q' && value !== undefined) {
      const parsed = Number(value);
      if (value !== '' && Number.isFinite(parsed) && parsed >= 0 && parsed <= 1) quality = parsed;
    } else rest.push(parameter.trim());
  }
  return { quality, rest };
}

/** The Accept header with quality values applied, or the header itself when it has none. */
export function withQualityApplied(accept: string): string {
  if (!/;\s*q\s*=/i.test(accept)) return accept;
  const ranges: Range[] = [];
  accept.split(',').forEach((entry, order) => {
    const [mediaRange = '', ...parameters] = entry.split(';');
    if (mediaRange.trim() === '') return;
    const { quality, rest } = qualityOf(parameters);
    if (quality > 0) ranges.push({ text: [mediaRange.trim(), ...rest].join(';'), quality, order });
  });
  if (ranges.length === 0) return NOTHING_ACCEPTABLE;
  ranges.sort((a, b) => b.quality - a.quality || a.order - b.order);
  return ranges.map((range) => range.text).join(', ');
}

/** Rewrites the request's Accept header in place (see above). */
export function applyAcceptQuality(request: IncomingMessage): void {
  const accept = request.headers.accept;
  if (accept !== undefined) request.headers.accept = withQualityApplied(accept);
}
