// One HTTP request on an undici dispatcher whose answer is read whole as text, straight from
// undici's handler callbacks: carrier answers are small JSON documents, so the Readable body
// stream and async resource that `undici.request` builds per call (then drained at once) are
// pure cost. Failures reject with undici's own errors (their `code` says what went wrong).

import type { Dispatcher } from 'undici';

/**
 * The largest answer read: carrier answers are a few KB, so a body past this is a broken or
 * hostile peer, cut off before it fills the gateway's memory (the timeout bounds only its time).
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The carrier's answer grew past MAX_ANSWER_BYTES; the request was delivered. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  constructor() {
    super(`carrier answer larger than ${MAX_ANSWER_BYTES} bytes`);
  }
}

export interface TextAnswer {
  status: number;
  /** Name/value pairs as undici read them; parsed only by a caller that needs them. */
  rawHeaders: Buffer[];
  /** The body decoded as UTF-8, a byte-order mark dropped (as undici's `body.text()` does). */
  text: string;
}

export function requestText(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal,
): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new TextHandler(resolve, reject, signal));
  });
}

/** undici's handler protocol (the one its own `request` implements), collecting the body. */
class TextHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private rawHeaders: Buffer[] = [];
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private abortRequest: ((reason?: Error) => void) | undefined;
  private settled = false;
  private readonly onAbort = () => this.abortRequest?.(abortReason(this.signal));

  constructor(
    private readonly resolve: (answer: TextAnswer) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.signal.aborted) abort(abortReason(this.signal));
    else this.abortRequest = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    // Interim (1xx) answers are not the answer.
    if (status >= 200) {
      this.status = status;
      this.rawHeaders = rawHeaders;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    if (this.bytes > MAX_ANSWER_BYTES) {
      this.chunks.length = 0;
      this.abortRequest?.(new AnswerTooLargeError());
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.finish()) this.resolve({ status: this.status, rawHeaders: this.rawHeaders, text: decode(this.chunks) });
  }

  onError(error: Error): void {
    if (this.finish()) this.reject(error);
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
    return true;
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

function decode(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const start = body.length > 2 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  return body.toString('utf8', start);
}
