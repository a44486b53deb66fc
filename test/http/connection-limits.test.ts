// Connection caps on a real port: at most MAX_CONNECTIONS_PER_CLIENT open from one address (the
// next is closed unread, other addresses unaffected, a closed one frees its slot) and at most
// MAX_CONNECTIONS in all; refusals are counted by reason and logged once per address. Loopback
// answers the whole of 127/8 on Linux, so a client socket bound to 127.0.0.2 is another client.

import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyConnectionLimits,
  capsWarnings,
  clientOf,
  connectionCaps,
  defaultMaxConnections,
  FALLBACK_MAX_CONNECTIONS,
  openFileLimit,
  RefusalLog,
} from '../../src/http/connection-limits.js';
import type { Logger } from '../../src/lib/logger.js';
import { Metrics } from '../../src/metrics.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const METRICS_TOKEN = 'connection-caps-metrics-token-0123456789';
/** Held connections stay open for the whole file: no timeout of the server may free a slot. */
const PATIENT = { KEEP_ALIVE_TIMEOUT_MS: '600000', HEADERS_TIMEOUT_MS: '600000', REQUEST_TIMEOUT_MS: '600000' };

interface Warning {
  message: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLogger(warnings: Warning[]): Logger {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (message, fields) => void warnings.push({ message, fields }),
    error: () => undefined,
  };
}

/**
 * A keep-alive connection from `localAddress` once the server has answered a request on it (it
 * then holds its slot until closed), or null when the server closed it without an answer.
 */
function hold(url: string, localAddress: string): Promise<Socket | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress }, () =>
      socket.write(`GET /livez HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`),
    );
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (/^HTTP\/1\.1 200 /.test(received) && received.endsWith('}')) resolve(socket);
    });
    // A refused connection is closed, or reset when the request had already arrived.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(null));
  });
}

async function holdAll(url: string, localAddress: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let index = 0; index < count; index++) {
    const socket = await hold(url, localAddress);
    expect(socket, `connection ${index + 1} from ${localAddress}`).not.toBeNull();
    sockets.push(socket!);
  }
  return sockets;
}

/** One request on a fresh connection from `localAddress` (no pool), its status. */
function livez(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}/livez`, { localAddress, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Refused connections by reason, as /metrics reports them (asked from an address under no cap). */
async function refusals(gateway: TestGateway, from: string): Promise<Record<string, number>> {
  const text = await new Promise<string>((resolve, reject) => {
    const outgoing = request(
      `${gateway.url}/metrics`,
      { localAddress: from, agent: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(body));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
  const counts: Record<string, number> = {};
  for (const [, reason, value] of text.matchAll(/^line_gateway_connections_refused_total\{reason="(\w+)"\} (\d+)$/gm))
    counts[reason!] = Number(value);
  return counts;
}

const closeAll = (sockets: Socket[]) => sockets.forEach((socket) => socket.destroy());

describe('MAX_CONNECTIONS_PER_CLIENT', () => {
  let gateway: TestGateway;
  const warnings: Warning[] = [];
  const held: Socket[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway({
      env: { MAX_CONNECTIONS_PER_CLIENT: '5', METRICS_TOKEN, ...PATIENT },
      logger: recordingLogger(warnings),
    });
  });
  afterAll(async () => {
    closeAll(held);
    await gateway.close();
  });

  it('refuses the 6th connection from one address, unread, while another address connects and is answered', async () => {
    held.push(...(await holdAll(gateway.url, '127.0.0.1', 5)));
    expect(gateway.connections.openFrom('127.0.0.1')).toBe(5);

    expect(await hold(gateway.url, '127.0.0.1')).toBeNull();
    expect(await hold(gateway.url, '127.0.0.1')).toBeNull();
    expect(gateway.connections.openFrom('127.0.0.1')).toBe(5);

    // Another client is not affected: it gets its own five, and answers on fresh connections.
    held.push(...(await holdAll(gateway.url, '127.0.0.2', 5)));
    expect(await livez(gateway.url, '127.0.0.3')).toBe(200);
    expect(await refusals(gateway, '127.0.0.3')).toEqual({ per_client: 2 });
  });

  it('answers on the connections it holds, and frees a slot when one closes', async () => {
    // The held connections still serve requests (keep-alive).
    const [first, second] = held as [Socket, Socket];
    const answer = await new Promise<string>((resolve) => {
      let received = '';
      second.removeAllListeners('data');
      second.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.endsWith('}')) resolve(received);
      });
      second.write('GET /livez HTTP/1.1\r\nHost: gateway\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);

    first.destroy();
    held.shift();
    expect(await eventually(async () => gateway.connections.openFrom('127.0.0.1') === 4, 5_000)).toBe(true);
    const again = await hold(gateway.url, '127.0.0.1');
    expect(again).not.toBeNull();
    held.push(again!);
    expect(await hold(gateway.url, '127.0.0.1')).toBeNull();
    expect(await refusals(gateway, '127.0.0.3')).toEqual({ per_client: 3 });
  });

  it('logs one warning for the address, naming the cap, however many it refuses', () => {
    const refused = warnings.filter((warning) => warning.message.startsWith('connection refused'));
    expect(refused).toEqual([
      {
        message: expect.stringContaining('MAX_CONNECTIONS_PER_CLIENT') as string,
        fields: { address: '127.0.0.1', reason: 'per_client', cap: 5 },
      },
    ]);
  });

  it('does not count in-process requests, which hold no connection', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => gateway.handle(new Request('http://gateway.in-process/livez'))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
  });
});

describe('MAX_CONNECTIONS', () => {
  let gateway: TestGateway;
  const held: Socket[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway({
      env: { MAX_CONNECTIONS: '4', MAX_CONNECTIONS_PER_CLIENT: '0', METRICS_TOKEN, ...PATIENT },
    });
  });
  afterAll(async () => {
    closeAll(held);
    await gateway.close();
  });

  it('refuses a connection from any address once MAX_CONNECTIONS are open, and takes one once a slot frees', async () => {
    expect(gateway.connections.caps).toMatchObject({ total: 4, perClient: 0, totalFrom: 'MAX_CONNECTIONS' });
    held.push(...(await holdAll(gateway.url, '127.0.0.1', 3)), ...(await holdAll(gateway.url, '127.0.0.2', 1)));
    expect(await gateway.connections.open()).toBe(4);
    expect(await hold(gateway.url, '127.0.0.3')).toBeNull();
    expect(await hold(gateway.url, '127.0.0.1')).toBeNull();

    held.shift()!.destroy();
    expect(await eventually(async () => (await gateway.connections.open()) === 3, 5_000)).toBe(true);
    // The slot is taken to read the metrics, then given back.
    expect(await refusals(gateway, '127.0.0.4')).toEqual({ global: 2 });
    expect(await eventually(async () => (await gateway.connections.open()) === 3, 5_000)).toBe(true);
    const again = await hold(gateway.url, '127.0.0.3');
    expect(again).not.toBeNull();
    held.push(again!);
    expect(await hold(gateway.url, '127.0.0.2')).toBeNull();
  });
});

describe('defaults', () => {
  it('derives MAX_CONNECTIONS from the open-file limit, keeping 512 descriptors (at most half)', () => {
    expect(defaultMaxConnections(20_000)).toBe(19_488);
    expect(defaultMaxConnections(65_536)).toBe(65_024);
    expect(defaultMaxConnections(1024)).toBe(512);
    expect(defaultMaxConnections(256)).toBe(128);
    expect(defaultMaxConnections(null)).toBe(FALLBACK_MAX_CONNECTIONS);
    expect(connectionCaps({ MAX_CONNECTIONS: undefined, MAX_CONNECTIONS_PER_CLIENT: 512 }, 20_000)).toEqual({
      perClient: 512,
      total: 19_488,
      openFileLimit: 20_000,
      totalFrom: 'open-file limit',
    });
    expect(connectionCaps({ MAX_CONNECTIONS: 0, MAX_CONNECTIONS_PER_CLIENT: 0 }, 20_000)).toMatchObject({
      total: 0,
      totalFrom: 'MAX_CONNECTIONS',
    });
    expect(connectionCaps({ MAX_CONNECTIONS: undefined, MAX_CONNECTIONS_PER_CLIENT: 512 }, null).totalFrom).toBe(
      'fallback',
    );
  });

  it('warns at start-up of a MAX_CONNECTIONS leaving too few descriptors, or a per-client cap not below it', () => {
    const caps = (total: number | undefined, perClient: number, limit: number | null) =>
      capsWarnings(connectionCaps({ MAX_CONNECTIONS: total, MAX_CONNECTIONS_PER_CLIENT: perClient }, limit));
    expect(caps(undefined, 512, 20_000)).toEqual([]);
    expect(caps(19_488, 512, 20_000)).toEqual([]);
    expect(caps(5_000, 0, null)).toEqual([]);
    expect(caps(19_800, 512, 20_000)).toEqual([expect.stringMatching(/^MAX_CONNECTIONS 19800 leaves fewer than 512/)]);
    expect(caps(0, 512, 20_000)).toEqual([expect.stringMatching(/^MAX_CONNECTIONS 0 \(no cap\)/)]);
    // ulimit -n 1024: 512 connections in all, which one address could hold alone.
    expect(caps(undefined, 512, 1024)).toEqual([expect.stringMatching(/^MAX_CONNECTIONS_PER_CLIENT 512 is not below/)]);
    expect(caps(undefined, 128, 1024)).toEqual([]);
  });

  it('reads the soft limit from /proc/self/limits, and nothing from what it cannot read', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63455                63455                processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n');
    expect(openFileLimit(() => limits)).toBe(1024);
    expect(openFileLimit(() => limits.replace('1024 ', 'unlimited '))).toBeNull();
    expect(
      openFileLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('applies 512 per client and the derived global cap when neither is set', async () => {
    const gateway = await startTestGateway();
    try {
      expect(gateway.connections.caps).toEqual(connectionCaps({ MAX_CONNECTIONS_PER_CLIENT: 512 }));
      expect(gateway.connections.caps.perClient).toBe(512);
    } finally {
      await gateway.close();
    }
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, other IPv6 addresses one by one', () => {
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::FFFF:127.0.0.1')).toBe('127.0.0.1');
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8::1')).toBe('2001:db8::1');
    expect(clientOf('::ffff:7f00:1')).toBe('::ffff:7f00:1');
  });
});

describe('a dual-stack listener', () => {
  let server: Server;
  let url: string;
  let dualStack = true;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('{}'));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '::', () => resolve());
      });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    } catch {
      dualStack = false;
    }
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts IPv4 clients (seen as ::ffff:127.0.0.1) under their IPv4 address', async (context) => {
    if (!dualStack) return context.skip('no IPv6 on this machine');
    const limits = applyConnectionLimits(
      server,
      connectionCaps({ MAX_CONNECTIONS: 0, MAX_CONNECTIONS_PER_CLIENT: 1 }, null),
      { metrics: new Metrics({ defaultMetrics: false }), logger: recordingLogger([]) },
    );
    const socket = await new Promise<Socket>((resolve) => {
      const client = connect({ host: '127.0.0.1', port: Number(new URL(url).port) }, () => resolve(client));
    });
    try {
      expect(await eventually(async () => limits.openFrom('127.0.0.1') === 1, 5_000)).toBe(true);
      expect(limits.openFrom('::ffff:127.0.0.1')).toBe(1);
    } finally {
      socket.destroy();
      limits.close();
    }
  });
});

describe('RefusalLog', () => {
  it('logs each address once per window, at most maxNamed of them, then one line counting the rest', () => {
    const warnings: Warning[] = [];
    const log = new RefusalLog(recordingLogger(warnings), { perClient: 5, total: 100 }, 60_000, 3);
    for (let round = 0; round < 4; round++)
      for (let host = 1; host <= 5; host++) log.refused('per_client', `192.0.2.${host}`);
    log.refused('global', '192.0.2.9');
    expect(warnings.map((warning) => warning.fields?.address)).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3']);

    log.flush();
    expect(warnings).toHaveLength(4);
    // 21 refusals, 3 of them logged one by one.
    expect(warnings[3]!.fields).toEqual({ refused: 18, windowSeconds: 60, addressesLogged: 3 });

    // A new window names addresses again; a quiet window logs nothing at its end.
    log.refused('global', '192.0.2.9');
    expect(warnings[4]).toMatchObject({ fields: { reason: 'global', cap: 100 } });
    log.flush();
    log.flush();
    expect(warnings).toHaveLength(5);
  });
});
