// Request bodies are read as sent: the gateway decodes no content coding (the body limit would
// hold a gzip bomb only to its compressed size). A body declaring one (gzip, deflate, br…) is
// refused 415 on both surfaces before a byte of it is read, instead of failing as broken JSON.

import type { IncomingMessage } from 'node:http';
import { quote } from '../lib/quote.js';

export class UnsupportedContentEncodingError extends Error {
  override readonly name = 'UnsupportedContentEncodingError';
  constructor(readonly coding: string) {
    super(`Unsupported Content-Encoding ${JSON.stringify(quote(coding, 32))}: send the body unencoded (identity)`);
  }
}

/** RFC 9110 §15.5.16: a 415 for a content coding says which codings a request may use. */
export const unencodedOnlyHeaders = { 'accept-encoding': 'identity' };

/** The first content coding of the request's body other than `identity`; null when none (or no body). */
export function unsupportedContentCoding(request: IncomingMessage): string | null {
  const declared = request.headers['content-encoding'];
  if (declared === undefined) return null;
  const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
  if (chunked === undefined && (length === undefined || Number(length) === 0)) return null;
  for (const coding of declared.split(',')) {
    const name = coding.trim().toLowerCase();
    if (name !== '' && name !== 'identity') return name;
  }
  return null;
}
