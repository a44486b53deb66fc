// Reading JSON request bodies and writing JSON responses on node:http.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBoundedBody } from './body-limit.js';
import { JsonTooDeepError, JsonTooManyKeysError, MAX_JSON_KEYS, jsonOverLimits } from './json-depth.js';
import { merged } from '../lib/merged.js';

export { BodyTooLargeError } from './body-limit.js';
export { JsonTooDeepError, JsonTooManyKeysError } from './json-depth.js';

export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth: number;
}

export class InvalidJsonError extends Error {
  override readonly name = 'InvalidJsonError';
  constructor(readonly position: number) {
    super('JSON decode error');
  }
}

/**
 * The parsed body (undefined when empty); BodyTooLargeError, JsonTooDeepError,
 * JsonTooManyKeysError (an object of more than MAX_JSON_KEYS keys) or InvalidJsonError otherwise.
 */
export async function readJsonBody(request: IncomingMessage, limits: BodyLimits): Promise<unknown> {
  const text = (await readBoundedBody(request, limits.maxBytes)).toString('utf8');
  if (text.trim() === '') return undefined;
  const over = jsonOverLimits(text, limits.maxDepth, MAX_JSON_KEYS);
  if (over === 'depth') throw new JsonTooDeepError(limits.maxDepth);
  if (over === 'keys') throw new JsonTooManyKeysError(MAX_JSON_KEYS);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const position = Number(/position (\d+)/.exec(String(error))?.[1] ?? 0);
    throw new InvalidJsonError(position);
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  response.writeHead(
    status,
    merged(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
  );
  response.end(payload);
}
