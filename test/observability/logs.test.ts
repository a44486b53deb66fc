// The gateway's log as operators' tools read it: one JSON line per entry with pid and hostname,
// credentials redacted wherever a caller puts them, errors as `err` {type, message, stack},
// every line of a request carrying its id, and one access line per request at info naming the
// route template (never the path with its MDN).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childLogger, createLogger } from '../../src/lib/logger.js';
import { eventually } from '../support/eventually.js';
import { spawnIn } from '../support/processes.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';
import { startRecordingServer } from '../support/recording-server.js';

type Line = Record<string, unknown> & { level: string; message: string };

function capture(level: 'debug' | 'info' = 'info') {
  const raw: string[] = [];
  const logger = createLogger(level, (line) => raw.push(line));
  return { raw, logger, lines: () => raw.map((line) => JSON.parse(line) as Line) };
}

describe('the logger', () => {
  it('redacts a bearer token and API keys a caller forces into a log call', () => {
    const { raw, logger, lines } = capture();
    const bearer = 'eyJhbGciOiJIUzI1NiJ9.secret-payload.signature';
    logger.warn(`copied header: Bearer ${bearer}`, {
      headers: { authorization: `Bearer ${bearer}`, 'x-api-key': 'key-321-secret' },
      apiKey: 'key-321-secret',
      carrier: { apiSecret: 'b-secret-value', password: 'hunter2-value' },
      token: bearer,
      reason: `client sent Bearer ${bearer}`,
    });
    expect(raw).toHaveLength(1);
    for (const secret of [bearer, 'key-321-secret', 'b-secret-value', 'hunter2-value'])
      expect(raw[0]).not.toContain(secret);
    expect(lines()[0]).toMatchObject({
      level: 'warn',
      message: 'copied header: Bearer [REDACTED]',
      headers: { authorization: '[REDACTED]', 'x-api-key': '[REDACTED]' },
      apiKey: '[REDACTED]',
      carrier: { apiSecret: '[REDACTED]', password: '[REDACTED]' },
      token: '[REDACTED]',
      reason: 'client sent Bearer [REDACTED]',
    });
  });

  it('writes pid, hostname and an ISO time on every line, and honours the level', () => {
    const { logger, lines } = capture();
    logger.debug('hidden');
    logger.info('shown', { n: 1 });
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        message: 'shown',
        n: 1,
        pid: process.pid,
        hostname: expect.any(String),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
  });

  it('serializes an error as err with its type, message and stack', () => {
    const { logger, lines } = capture();
    logger.error('failed', { err: new RangeError('out of range') });
    expect(lines()[0]!.err).toEqual({
      type: 'RangeError',
      message: 'out of range',
      stack: expect.stringContaining('RangeError: out of range'),
    });
  });

  it('gives child loggers their bindings, also over a logger that cannot make children', () => {
    const { logger, lines } = capture();
    childLogger(logger, { requestId: 'r-1' }).info('one');
    const seen: Record<string, unknown>[] = [];
    const plain = {
      debug: () => undefined,
      info: (_: string, fields?: Record<string, unknown>) => void seen.push(fields ?? {}),
      warn: () => undefined,
      error: () => undefined,
    };
    childLogger(childLogger(plain, { requestId: 'r-2' }), { operation: 'usage' }).info('two', { status: 200 });
    expect(lines()[0]).toMatchObject({ requestId: 'r-1', message: 'one' });
    expect(seen).toEqual([{ requestId: 'r-2', operation: 'usage', status: 200 }]);
  });
});

/** A process logging through the compiled logger to its stderr: `script` runs with `log` (info level) in scope. */
function loggingProcess(script: string) {
  const program = `import('./dist/lib/logger.js').then(({ createLogger }) => { const log = createLogger('info'); ${script} });`;
  return spawnIn(process.execPath, ['-e', program], {});
}

describe('stderr, buffered', () => {
  it('writes a quiet process’s line without waiting for more lines or for the exit', async () => {
    // One line, then the process idles: the periodic flush writes it; SIGKILL then shows nothing waited for exit.
    const child = loggingProcess(`log.info('alone'); setInterval(() => {}, 1000);`);
    try {
      expect(await eventually(async () => child.output.stderr.includes('"message":"alone"'), 10_000, 20)).toBe(true);
    } finally {
      child.child.kill('SIGKILL');
      await child.done;
    }
  });

  it('writes every buffered line, in order, when the process exits or dies of an uncaught exception', async () => {
    const exited = await loggingProcess(
      `for (let i = 0; i < 500; i++) log.info('line ' + i); setImmediate(() => process.exit(3));`,
    ).done;
    expect(exited.code).toBe(3);
    const messages = exited.stderr
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as Line).message);
    expect(messages).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));

    const crashed = await loggingProcess(
      `log.info('before the crash'); setImmediate(() => { throw new Error('boom'); });`,
    ).done;
    expect(crashed.code).toBe(1);
    expect(crashed.stderr).toContain('"message":"before the crash"');
  });
});

describe('a request through the gateway', () => {
  let gateway: TestGateway;
  const log = capture('debug');

  beforeAll(async () => {
    gateway = await startTestGateway({ logger: log.logger });
  });
  afterAll(() => gateway.close());

  const accessLines = () => log.lines().filter((line) => line.message === 'request');

  it('writes one access line at info with the route template, status, time and user, never the MDN', async () => {
    const { user, token } = await gateway.user();
    const line = await seedLine(gateway);
    const answer = await gateway.rest('GET', `/sim/usage/${line.mdn}`, {
      token,
      headers: { 'x-request-id': 'access-1' },
    });
    expect(answer.status).toBe(200);
    expect(await eventually(async () => accessLines().some((entry) => entry.requestId === 'access-1'), 5_000)).toBe(
      true,
    );
    const access = accessLines().filter((entry) => entry.requestId === 'access-1');
    expect(access).toEqual([
      expect.objectContaining({
        level: 'info',
        method: 'GET',
        route: '/sim/usage/{mdn}',
        status: 200,
        ms: expect.any(Number),
        userId: user.id,
        pid: process.pid,
      }),
    ]);
    expect(log.raw.filter((raw) => raw.includes('access-1')).join('\n')).not.toContain(line.mdn);
  });

  it('labels GraphQL requests with the operation name and type, and unknown paths with a fixed label', async () => {
    const { token } = await gateway.user();
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'access-2' },
      body: JSON.stringify({ query: 'query WhoAmI { me { name } }' }),
    });
    expect(response.status).toBe(200);
    await response.text();
    await gateway.rest('GET', '/no/such/3215550001', { headers: { 'x-request-id': 'access-3' } });
    expect(
      await eventually(
        async () =>
          accessLines().filter((entry) => ['access-2', 'access-3'].includes(String(entry.requestId))).length === 2,
        5_000,
      ),
    ).toBe(true);
    expect(accessLines().find((entry) => entry.requestId === 'access-2')).toMatchObject({
      route: '/graphql',
      operationName: 'WhoAmI',
      operationType: 'query',
      status: 200,
    });
    expect(accessLines().find((entry) => entry.requestId === 'access-3')).toMatchObject({
      route: 'unmatched',
      status: 404,
    });
    expect(log.raw.filter((raw) => raw.includes('access-3') && raw.includes('"request"')).join('')).not.toContain(
      '3215550001',
    );
  });

  it("puts the request id on every line of the request, the pipeline's included", async () => {
    const carrier = await startRecordingServer(() => ({ status: 503, body: {} }));
    const own = capture();
    const faulty = await startTestGateway({
      env: { CARRIER_321_URL: carrier.url, CARRIER_321_API_KEY: 'key-321', CARRIER_RETRIES: '0' },
      logger: own.logger,
    });
    try {
      const { token } = await faulty.user();
      const answer = await faulty.rest('GET', '/sim/usage/3215550001', {
        token,
        headers: { 'x-request-id': 'access-4' },
      });
      expect(answer.status).toBe(400);
      // The carrier fault is logged deep in the pipeline, through the request's child logger.
      expect(await eventually(async () => own.lines().some((entry) => entry.message === 'request'), 5_000)).toBe(true);
      const messages = own
        .lines()
        .filter((entry) => entry.requestId === 'access-4')
        .map((entry) => entry.message);
      expect(messages).toEqual(['carrier fault', 'request failed', 'request']);
      expect(own.raw.join('\n')).not.toContain('key-321');
    } finally {
      await faulty.close();
      await carrier.close();
    }
  });
});
