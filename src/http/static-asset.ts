// Serves a fixed in-memory body the way static files should be: gzip or brotli when the client
// accepts it (compressed once, off the event loop, then kept), a strong ETag per encoding with
// 304 answers to If-None-Match, and the Cache-Control the caller chooses.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { weightedEntries } from './quality-values.js';
import { addVary } from './vary.js';

type Encoding = 'br' | 'gzip' | 'identity';

const compressors: Record<Exclude<Encoding, 'identity'>, (body: Buffer) => Promise<Buffer>> = {
  // Quality 9 of 11: within a few per cent of the smallest, several times faster to make.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** Bodies smaller than this are sent as they are: compression would not pay. */
const MIN_COMPRESSIBLE = 1024;

/** The best encoding the client accepts (q > 0), brotli first. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const { value, quality } of weightedEntries(acceptEncoding ?? '')) accepted.set(value.toLowerCase(), quality);
  const allows = (name: string) => (accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0)) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}

type Variant = Promise<{ body: Buffer; etag: string }>;

/**
 * Encoded bodies by content hash and encoding, shared by every asset of the process: a body
 * served by several gateways in one process (tests, the CLI beside a server) is compressed once.
 */
const variantsByContent = new Map<string, Variant>();

export class StaticAsset {
  private contentHash: string | undefined;

  constructor(
    private readonly body: Buffer,
    readonly contentType: string,
    private readonly cacheControl: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  /** A short content hash, for URLs that change when the content does. */
  get hash(): string {
    return createHash('sha256').update(this.body).digest('base64url').slice(0, 12);
  }

  private variant(encoding: Encoding): Variant {
    this.contentHash ??= createHash('sha256').update(this.body).digest('base64url');
    const key = `${this.contentHash}:${encoding}`;
    let variant = variantsByContent.get(key);
    if (!variant) {
      const made = encoding === 'identity' ? Promise.resolve(this.body) : compressors[encoding](this.body);
      variant = made.then((body) => ({
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      }));
      variantsByContent.set(key, variant);
    }
    return variant;
  }

  async send(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const header = request.headers['accept-encoding'];
    const encoding =
      this.body.length < MIN_COMPRESSIBLE
        ? 'identity'
        : chooseEncoding(Array.isArray(header) ? header.join(',') : header);
    const { body, etag } = await this.variant(encoding);
    const headers: Record<string, string | number> = {
      'content-type': this.contentType,
      'cache-control': this.cacheControl,
      etag,
      'x-content-type-options': 'nosniff',
      ...this.extraHeaders,
    };
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    // Added to the response, not put in the head: a Vary in writeHead's headers would replace CORS's Origin.
    addVary(response, 'Accept-Encoding');
    const ifNoneMatch = request.headers['if-none-match'];
    if (
      ifNoneMatch !== undefined &&
      ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
    ) {
      response.writeHead(304, { etag, 'cache-control': this.cacheControl });
      return void response.end();
    }
    headers['content-length'] = body.length;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }
}
