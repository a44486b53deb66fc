// REST refusals are logged as client errors, at info (warn for 401, 403 and 429), with the
// request id and the operation, never as "unexpected error"; a real fault stays an error with
// its stack (`err`). The gateway's log is captured through the logger passed to
// startGateway; the access line every request gets (test/observability) is left out here.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { eventually } from '../support/eventually.js';
import { startGateway, startTestGateway, type TestGateway } from '../support/gateway.js';

interface Line {
  level: string;
  route?: string;
  message: string;
  requestId?: string;
  operation?: string;
  status?: number;
  code?: string;
  reason?: string;
  err?: { type: string; message: string; stack: string };
}

/** The lines about a request other than its access line (written when its connection closes). */
const about = (requestId: string) => lines.filter((line) => line.requestId === requestId && line.message !== 'request');

let gateway: TestGateway;
let token: string;
const lines: Line[] = [];
let counter = 0;

beforeAll(async () => {
  gateway = await startGateway({ logger: createLogger('info', (line) => lines.push(JSON.parse(line) as Line)) });
  ({ token } = await gateway.user());
});
afterAll(() => gateway.close());

/** Sends a request with a fresh request id and answers its status and the log lines carrying that id. */
async function logged(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; lines: Line[] }> {
  const requestId = `log-test-${++counter}`;
  const answer = await gateway.rest(method, path, { ...options, headers: { 'x-request-id': requestId } });
  return { status: answer.status, lines: about(requestId) };
}

describe('client errors on REST', () => {
  it('logs a validation failure at info with the operation and the reason', async () => {
    const result = await logged('POST', '/sim/suspend/', { token, body: { mdn: '12' } });
    expect(result.status).toBe(422);
    expect(result.lines).toEqual([
      expect.objectContaining({
        level: 'info',
        message: 'request refused',
        operation: 'suspendLine',
        status: 422,
        code: 'BAD_USER_INPUT',
        reason: 'mdn: mdn must be exactly 10 digits',
      }),
    ]);
  });

  it('logs a body that is not JSON at info', async () => {
    const result = await logged('POST', '/sim/suspend/', { token, body: '{"mdn":' });
    expect(result.status).toBe(422);
    expect(result.lines).toEqual([expect.objectContaining({ level: 'info', operation: 'suspendLine', status: 422 })]);
  });

  it('logs a missing token at warn, without the header', async () => {
    const result = await logged('GET', '/sim/usage/5550001111');
    expect(result.status).toBe(401);
    expect(result.lines).toEqual([
      expect.objectContaining({ level: 'warn', operation: 'usage', status: 401, code: 'UNAUTHENTICATED' }),
    ]);
  });

  it('logs a superuser-only operation called by a user at warn', async () => {
    const result = await logged('GET', '/settings/', { token });
    expect(result.status).toBe(403);
    expect(result.lines).toEqual([
      expect.objectContaining({ level: 'warn', operation: 'settings', status: 403, code: 'FORBIDDEN' }),
    ]);
  });

  it('logs an exhausted rate limit at warn', async () => {
    const { token: busy } = await gateway.user();
    for (let i = 0; i < 20; i++)
      await gateway.rest('POST', '/sim/suspend/', { token: busy, body: { mdn: '5550001111' } });
    const result = await logged('POST', '/sim/suspend/', { token: busy, body: { mdn: '5550001111' } });
    expect(result.status).toBe(429);
    expect(result.lines).toEqual([
      expect.objectContaining({ level: 'warn', operation: 'suspendLine', status: 429, code: 'RATE_LIMITED' }),
    ]);
  });

  it('logs an unknown route and a wrong method at info', async () => {
    const missing = await logged('GET', '/no/such/route', { token });
    expect(missing.status).toBe(404);
    expect(missing.lines).toEqual([expect.objectContaining({ level: 'info', status: 404, code: 'NOT_FOUND' })]);
    // An unknown path that carries an MDN: the refusal line names the path's shape, not the number.
    const withMdn = await logged('GET', '/sim/usage-typo/3215550001', { token });
    expect(withMdn.status).toBe(404);
    expect(JSON.stringify(withMdn.lines)).not.toContain('3215550001');
    expect(JSON.stringify(withMdn.lines)).toContain('/sim/usage-typo/#');
    const wrongMethod = await logged('DELETE', '/sim/suspend/', { token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.lines).toEqual([
      expect.objectContaining({ level: 'info', status: 405, code: 'METHOD_NOT_ALLOWED' }),
    ]);
  });

  it('names the route template of a 405, never the path (HEAD, OPTIONS, TRACE, DELETE)', async () => {
    // A real port and node:http: fetch refuses to send TRACE.
    const listening = await startTestGateway({
      logger: createLogger('info', (line) => lines.push(JSON.parse(line) as Line)),
    });
    try {
      for (const method of ['HEAD', 'OPTIONS', 'TRACE', 'DELETE']) {
        const requestId = `log-test-405-${method}`;
        const status = await new Promise<number>((resolve, reject) => {
          const outgoing = request(`${listening.url}/sim/usage/5551234567`, {
            method,
            headers: { 'x-request-id': requestId },
          });
          outgoing.on('response', (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          });
          outgoing.on('error', reject);
          outgoing.end();
        });
        expect(status, method).toBe(405);
        // The access line is written once the response is closed.
        const logged = () => lines.filter((line) => line.requestId === requestId);
        expect(await eventually(async () => logged().length === 2, 2_000), method).toBe(true);
        expect(JSON.stringify(logged()), method).not.toContain('5551234567');
        expect(logged(), method).toContainEqual(
          expect.objectContaining({ status: 405, reason: `${method} /sim/usage/{mdn}` }),
        );
        expect(logged(), method).toContainEqual(
          expect.objectContaining({ message: 'request', route: '/sim/usage/{mdn}' }),
        );
      }
    } finally {
      await listening.close();
    }
  });

  it('never logs a client error as unexpected', () => {
    expect(lines.filter((line) => line.message === 'unexpected error')).toEqual([]);
  });
});

describe('a real fault', () => {
  it('is logged at error with its stack and answered 500 with the request id', async () => {
    const broken = await startGateway({
      logger: createLogger('info', (line) => lines.push(JSON.parse(line) as Line)),
    });
    try {
      const { token: own } = await broken.user();
      // The transaction log's table disappears under the gateway: the next mutation fails unexpectedly.
      await broken.app.services.db.$executeRawUnsafe('DROP TABLE "Transaction"');
      const requestId = 'log-test-fault';
      const answer = await broken.rest('POST', '/sim/suspend/', {
        token: own,
        body: { mdn: '5550001111' },
        headers: { 'x-request-id': requestId },
      });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ detail: 'Internal server error', request_id: requestId });
      expect(about(requestId)).toEqual([
        expect.objectContaining({
          level: 'error',
          message: 'unexpected error',
          operation: 'suspendLine',
          err: expect.objectContaining({ type: expect.any(String), stack: expect.any(String) }),
        }),
      ]);
    } finally {
      await broken.close();
    }
  });
});
