// The dashboard screen of issue 11 (`lines` of 10 lines × usage and networkStatus) against a
// bare graphql-yoga hello server, both measured in one run by autocannon (50 connections), the
// gateway running from a compiled build (`node <dist>/main.js`) with a standalone sandbox, and
// 1,500 users with rotating tokens (each well under one request per second). Run it once per
// build to compare: `BENCH_DIST=dist npx tsx bench/lines-screen.ts`. Not part of the test suite.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { openData } from '../src/app/data.js';
import { loadConfig } from '../src/config.js';
import { benchEnv } from './support/processes.js';

const DIST = resolve(process.env.BENCH_DIST ?? 'dist');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const USERS = Number(process.env.BENCH_USERS ?? 1500);
const CONNECTIONS = 50;
const LINES = 10;

const HELLO = `
import { createServer } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';
const yoga = createYoga({ schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } }), logging: false });
createServer(yoga).listen(Number(process.env.HELLO_PORT), '127.0.0.1');
`;

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function start(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', () => undefined);
  return child;
}

async function waitFor(url: string, init?: RequestInit): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url, init)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function measure(options: autocannon.Options) {
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-lines-bench-'));
  const [gatewayPort, port321, portB, helloPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env = {
    ...benchEnv(dir, { gateway: gatewayPort, carrier321: port321, carrierB: portB }),
    LOG_LEVEL: 'error',
    // Each user's screen costs 20 points; a user comes back every few seconds.
    GRAPHQL_COST_CAPACITY: '1000',
  };
  const data = await openData(loadConfig(env));
  await data.directory.createPlan({ planId: 'BENCH', name: 'Bench plan', carrierPlanId: 'BASIC1GB' });
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await data.directory.createUser({ name: `bench${i}`, superuser: i === 0 });
    if (i === 0) await data.directory.authorize(user.name, ['BENCH']);
    tokens.push((await data.tokens.issue(user, '2h')).token);
  }

  const hello = start(['--input-type=module', '-e', HELLO], { HELLO_PORT: String(helloPort) });
  const sandbox = start([join(DIST, 'sandbox/main.js')], env);
  const gateway = start([join(DIST, 'main.js')], env);
  const base = `http://127.0.0.1:${gatewayPort}`;
  try {
    await waitFor(`http://127.0.0.1:${port321}/_sandbox/clock`);
    await waitFor(`${base}/healthz`);
    await waitFor(`http://127.0.0.1:${helloPort}/graphql?query=%7Bhello%7D`);
    const mdns: string[] = [];
    for (let i = 0; i < LINES; i++) {
      const activation = await fetch(`${base}/sim/activate/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          sim: `890100000000000${String(7000 + i)}`,
          plan_id: 'BENCH',
          zip_code: '30301',
          address1: '1 Main St',
          city: 'Atlanta',
          state: 'GA',
        }),
      });
      const line = (await activation.json()) as { mdn?: string };
      if (!line.mdn) throw new Error(`activation failed: ${JSON.stringify(line)}`);
      mdns.push(line.mdn);
    }
    // The screen's lines are everyone's (nobody owns them), so that every user may look.
    await data.db.line.updateMany({ data: { ownerId: null } });
    await new Promise((done) => setTimeout(done, 1500)); // past CACHE_TTL_MS

    let next = 1;
    const screen = JSON.stringify({
      query: 'query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } networkStatus { status } } }',
      variables: { mdns },
    });
    const check = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[1]}`, 'content-type': 'application/json' },
      body: screen,
    });
    const checked = JSON.stringify(await check.json());
    if (checked.includes('"errors"') || !checked.includes('SUCCESS')) throw new Error(`screen fails: ${checked}`);

    const helloResult = await measure({
      url: `http://127.0.0.1:${helloPort}`,
      requests: [
        {
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"{ hello }"}',
        },
      ],
    });
    const linesResult = await measure({
      url: base,
      requests: [
        {
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': 'application/json' },
          body: screen,
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, authorization: `Bearer ${tokens[1 + (next++ % (USERS - 1))]}` },
          }),
        },
      ],
    });
    process.stdout.write(
      `${JSON.stringify({ dist: DIST, users: USERS, hello: helloResult, lines: linesResult, ratio: +(linesResult.rps / helloResult.rps).toFixed(3) })}\n`,
    );
  } finally {
    await data.close();
    for (const child of [gateway, sandbox, hello]) child.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 1500));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
