// ky's `fetch` for the carrier client (src/carriers/http-client.ts): each call goes out on the
// carrier's keep-alive undici Agent as the client prepared it, and comes back as a CarrierAnswer,
// never through the WHATWG fetch machinery (streams, Response, Headers) per call.

import type { Agent, Dispatcher } from 'undici';
import { requestText } from './text-request.js';

/**
 * What one call hands our `fetch` beside ky's Request (ky passes options it does not know to
 * `fetch`): the wire path, headers and body prepared once, so `fetch` takes nothing apart.
 */
export interface CallWire {
  method: Dispatcher.HttpMethod;
  /** Path and query string from the origin's root. */
  path: string;
  /** undici's flat name/value list, names lower-case. */
  headers: string[];
  body: string | undefined;
  /** Whether an earlier attempt may have reached the carrier (anything but a refused connection). */
  maybeDelivered: boolean;
}

export interface WireOptions {
  carrierWire: CallWire;
}

/**
 * The carrier's answer as ky sees it: what ky reads of a fetch Response (`ok`, `status`,
 * `statusText` for an HTTPError's message, `headers.get` for Retry-After and its kin, `body` to
 * cancel), and the text beside it. Not a WHATWG Response: node's Response, Headers, Request and
 * AbortSignal objects do not die in a scavenge (20,000 of them grow the old generation by 3–18 MB,
 * plain objects by nothing), and each one promoted keeps the young objects it points at alive until
 * the next full collection (docs/performance.md, "Tail latency").
 */
export class CarrierAnswer {
  readonly ok: boolean;
  readonly statusText = '';
  readonly body = null;
  readonly headers: { get(name: string): string | null };

  constructor(
    readonly status: number,
    rawHeaders: Buffer[],
    readonly text: string,
  ) {
    this.ok = status >= 200 && status < 300;
    // ky reads headers only from an answer it throws as an HTTPError (Retry-After on 503…).
    this.headers = this.ok ? NO_HEADERS : headersOf(rawHeaders);
  }
}

const NO_HEADERS = { get: () => null };

/**
 * ky's `fetch`, served on one keep-alive Agent with none of the WHATWG machinery per call: the
 * request goes out as the call prepared it (ky's Request only lends its abort signal, which
 * carries ky's timeout), and the answer comes back as a CarrierAnswer with its text, so no stream
 * is built to carry a small JSON document. A transport failure rejects with undici's error, whose
 * `code` (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT…) the fault mapping reads.
 */
export function agentFetch(agent: Agent, origin: string): typeof globalThis.fetch {
  return (async (input: Request, init?: Partial<WireOptions>) => {
    const wire = init?.carrierWire;
    if (!wire) throw new TypeError('a carrier call reached fetch without its wire');
    const answer = await requestText(
      agent,
      { origin, path: wire.path, method: wire.method, headers: wire.headers, body: wire.body },
      input.signal,
    );
    return new CarrierAnswer(answer.status, answer.rawHeaders, answer.text);
  }) as unknown as typeof globalThis.fetch;
}

/** Header lookup by name, case-insensitive, over undici's raw name/value list (first value wins, as `Headers#get` joins). */
function headersOf(raw: Buffer[]): { get(name: string): string | null } {
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toString('latin1').toLowerCase();
    const value = raw[index + 1]!.toString('latin1');
    const earlier = values.get(name);
    values.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return { get: (name) => values.get(name.toLowerCase()) ?? null };
}
