// Reading JSON request bodies and writing JSON responses on node:http.

import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 1_000_000;

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

export class InvalidJsonError extends Error {
  override readonly name = 'InvalidJsonError';
  constructor(readonly position: number) {
    super('JSON decode error');
  }
}

export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('Request body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const position = Number(/position (\d+)/.exec(String(error))?.[1] ?? 0);
    throw new InvalidJsonError(position);
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
}
