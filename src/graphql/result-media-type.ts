// Which media type Yoga would answer a single GraphQL result in, for the direct lane
// (direct-execution.ts) to answer in the same one: read from the Accept header exactly as
// graphql-yoga reads it (its result-processor/accept.js and use-result-processor.js).

/** Yoga's result processors for a single result, in the order it tries them: SSE, multipart, regular. */
const RESULT_PROCESSORS = [
  ['text/event-stream'],
  ['multipart/mixed'],
  ['application/graphql-response+json', 'application/json'],
];

/**
 * The media type Yoga's result processors would answer a single result in, read from the
 * Accept header exactly as Yoga reads it (graphql-yoga's result-processor/accept.js and
 * use-result-processor.js: the last match wins, the regular processor is tried last); null
 * when Yoga would stream it (SSE, multipart) or refuse it (406).
 */
export function regularMediaType(accept: string | undefined): string | null {
  const asked: string[] = [];
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (mediaType !== undefined && charset === 'charset=utf-8') asked.push(mediaType);
  }
  asked.reverse();
  const matches = (offered: string, wanted: string) => {
    const [offeredType, offeredSub] = offered.split('/');
    const [type, sub] = wanted.split('/');
    return (type === '*' || type === offeredType) && (sub === '*' || sub === offeredSub);
  };
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
