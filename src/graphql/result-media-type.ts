// Which media type Yoga would answer a single GraphQL result in, for the direct lane
// (direct-execution.ts) to answer in the same one: read from the Accept header exactly as
// graphql-yoga reads it (its result-processor/accept.js and use-result-processor.js); and
// whether it would answer in any (use-not-acceptable.ts refuses the others).

/** Yoga's result processors for a single result, in the order it tries them: SSE, multipart, regular. */
const RESULT_PROCESSORS = [
  ['text/event-stream'],
  ['multipart/mixed'],
  ['application/graphql-response+json', 'application/json'],
];

/** Every media type /graphql answers in, whatever the operation. */
export const SERVED_MEDIA_TYPES: readonly string[] = RESULT_PROCESSORS.flat();

/**
 * The media ranges of an Accept header as Yoga reads them: no header accepts anything, quality
 * values are not read (accept-quality.ts has applied them), a range for a charset other than
 * utf-8 is dropped, and the last range comes first (the last match wins).
 */
function askedRanges(accept: string | null | undefined): string[] {
  const asked: string[] = [];
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (mediaType !== undefined && charset === 'charset=utf-8') asked.push(mediaType);
  }
  return asked.reverse();
}

function matches(offered: string, wanted: string): boolean {
  const [offeredType, offeredSub] = offered.split('/');
  const [type, sub] = wanted.split('/');
  return (type === '*' || type === offeredType) && (sub === '*' || sub === offeredSub);
}

/** Whether Yoga, reading the Accept header, would answer in `offered`. */
export function acceptsMediaType(accept: string | null | undefined, offered: string): boolean {
  return askedRanges(accept).some((wanted) => matches(offered, wanted));
}

/** Whether the Accept header allows any media type /graphql answers in (else every answer is a 406). */
export function acceptsAnyServed(accept: string | null | undefined): boolean {
  return SERVED_MEDIA_TYPES.some((offered) => acceptsMediaType(accept, offered));
}

/**
 * The media type Yoga's result processors would answer a single result in, read from the
 * Accept header exactly as Yoga reads it (graphql-yoga's result-processor/accept.js and
 * use-result-processor.js: the last match wins, the regular processor is tried last); null
 * when Yoga would stream it (SSE, multipart) or refuse it (406).
 */
export function regularMediaType(accept: string | undefined): string | null {
  const asked = askedRanges(accept);
  let chosen: string | null = null;
  for (const processor of RESULT_PROCESSORS) {
    for (const wanted of asked) for (const offered of processor) if (matches(offered, wanted)) chosen = offered;
  }
  return chosen === 'application/graphql-response+json' || chosen === 'application/json' ? chosen : null;
}

/** regularMediaType remembered by Accept header (clients send a handful of them; at most 64 are kept). */
export function acceptedMediaTypes(): { of(accept: string | undefined): string | null } {
  const known = new Map<string | undefined, string | null>();
  return {
    of(accept) {
      let mediaType = known.get(accept);
      if (mediaType === undefined) {
        mediaType = regularMediaType(accept);
        if (known.size < 64) known.set(accept, mediaType);
      }
      return mediaType;
    },
  };
}
