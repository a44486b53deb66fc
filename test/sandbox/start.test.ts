import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_FAULTS } from '../../src/sandbox/http-kit.js';
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  sandboxOptionsFromEnvironment,
  startSandboxCarriers,
  type SandboxCarriers,
} from '../../src/sandbox/start.js';

const CREDENTIALS = {
  '321': { apiKey: 'test-321-key' },
  carrier_b: { accountId: 'test-b-account', apiSecret: 'test-b-secret' },
};

describe('startSandboxCarriers', () => {
  let sandboxes: SandboxCarriers | undefined;
  afterEach(async () => {
    await sandboxes?.close();
    sandboxes = undefined;
  });

  it('starts both carriers on free ports, each with its own clock control', async () => {
    sandboxes = await startSandboxCarriers({ credentials: CREDENTIALS, ports: { '321': 0, carrier_b: 0 } });
    expect(sandboxes.urls['321']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandboxes.urls.carrier_b).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandboxes.urls['321']).not.toBe(sandboxes.urls.carrier_b);
    expect(sandboxes.cores['321'].carrier).toBe('321');
    expect(sandboxes.cores.carrier_b.carrier).toBe('carrier_b');
    expect(sandboxes.cores['321'].extended).toBeDefined();
    expect(sandboxes.cores.carrier_b.extended).toBeUndefined();

    for (const url of Object.values(sandboxes.urls)) {
      const response = await fetch(`${url}/_sandbox/clock`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { now: string };
      expect(Date.parse(body.now)).not.toBeNaN();
    }

    // Moving one carrier's clock leaves the other alone.
    const before = sandboxes.cores.carrier_b.now().getTime();
    const advanced = await fetch(`${sandboxes.urls['321']}/_sandbox/clock`, {
      method: 'POST',
      body: JSON.stringify({ advance_days: 31 }),
    });
    const moved = Date.parse(((await advanced.json()) as { now: string }).now);
    expect(moved - before).toBeGreaterThanOrEqual(31 * 86_400_000);
    expect(sandboxes.cores['321'].now().getTime() - sandboxes.cores.carrier_b.now().getTime()).toBeGreaterThan(
      30 * 86_400_000,
    );
    expect(sandboxes.cores.carrier_b.now().getTime() - before).toBeLessThan(86_400_000);
  });

  it('wires each carrier’s credentials: carrier routes refuse strangers and accept the configured ones', async () => {
    sandboxes = await startSandboxCarriers({ credentials: CREDENTIALS, faults: NO_FAULTS });
    const basic = `Basic ${Buffer.from('test-b-account:test-b-secret').toString('base64')}`;
    const probe = async (url: string, headers: Record<string, string>) =>
      (await fetch(`${url}/no-such-route`, { headers })).status;

    expect(await probe(sandboxes.urls['321'], {})).toBe(401);
    expect(await probe(sandboxes.urls['321'], { 'x-api-key': 'wrong' })).toBe(401);
    expect(await probe(sandboxes.urls['321'], { 'x-api-key': 'test-321-key' })).not.toBe(401);
    expect(await probe(sandboxes.urls.carrier_b, {})).toBe(401);
    expect(await probe(sandboxes.urls.carrier_b, { authorization: basic })).not.toBe(401);
  });

  it('closes both servers, and closing twice is harmless', async () => {
    const started = await startSandboxCarriers({ credentials: CREDENTIALS });
    await started.close();
    await started.close();
    await expect(fetch(`${started.urls['321']}/_sandbox/clock`)).rejects.toThrow();
    await expect(fetch(`${started.urls.carrier_b}/_sandbox/clock`)).rejects.toThrow();
  });

  it('does not leave one server listening when the other cannot start', async () => {
    sandboxes = await startSandboxCarriers({ credentials: CREDENTIALS });
    const taken = Number(new URL(sandboxes.urls['321']).port);
    await expect(
      startSandboxCarriers({ credentials: CREDENTIALS, ports: { '321': 0, carrier_b: taken } }),
    ).rejects.toThrow(/EADDRINUSE/);
    await expect(startSandboxCarriers({ credentials: CREDENTIALS, ports: { '321': 70_000 } })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('sandboxOptionsFromEnvironment', () => {
  it('defaults to the documented host, ports and public sandbox credentials', () => {
    expect(sandboxOptionsFromEnvironment({})).toEqual({
      host: '127.0.0.1',
      ports: { '321': 4321, carrier_b: 4322 },
      credentials: DEFAULT_SANDBOX_CREDENTIALS,
      faults: NO_FAULTS,
      mdnPoolSize: 9999,
    });
    expect(DEFAULT_SANDBOX_CREDENTIALS).toEqual({
      '321': { apiKey: 'sandbox-321-key' },
      carrier_b: { accountId: 'sandbox-b-account', apiSecret: 'sandbox-b-secret' },
    });
  });

  it('reads every variable', () => {
    const options = sandboxOptionsFromEnvironment({
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_321_PORT: '5001',
      SANDBOX_CARRIER_B_PORT: '0',
      CARRIER_321_API_KEY: 'k',
      CARRIER_B_ACCOUNT_ID: 'a',
      CARRIER_B_API_SECRET: 's',
      SANDBOX_FAULT_ERROR_RATE: '0.5',
      SANDBOX_MDN_POOL_SIZE: '30000',
    });
    expect(options).toMatchObject({
      host: '0.0.0.0',
      ports: { '321': 5001, carrier_b: 0 },
      credentials: { '321': { apiKey: 'k' }, carrier_b: { accountId: 'a', apiSecret: 's' } },
      faults: { ...NO_FAULTS, errorRate: 0.5 },
      mdnPoolSize: 30_000,
    });
  });

  it('refuses a port that is not a port, naming the variable only', () => {
    expect(() => sandboxOptionsFromEnvironment({ SANDBOX_321_PORT: 'http' })).toThrow(
      'Invalid SANDBOX_321_PORT: must be a port number from 0 to 65535',
    );
    expect(() => sandboxOptionsFromEnvironment({ SANDBOX_CARRIER_B_PORT: '70000' })).toThrow(/SANDBOX_CARRIER_B_PORT/);
  });

  it('refuses a pool beyond ten exchanges or not a number', () => {
    for (const raw of ['99991', '-1', '1e4', 'lots'])
      expect(() => sandboxOptionsFromEnvironment({ SANDBOX_MDN_POOL_SIZE: raw })).toThrow(
        'Invalid SANDBOX_MDN_POOL_SIZE: must be a whole number from 0 to 99990',
      );
  });
});

describe('the sandbox process (`npm run sandbox` runs dist/sandbox/main.js; test/e2e/shared-sandbox.test.ts starts it through npm)', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('prints both URLs but no credential, serves them, and exits cleanly on SIGTERM', async () => {
    const secrets = {
      CARRIER_321_API_KEY: 'env-key-7f3a91',
      CARRIER_B_ACCOUNT_ID: 'env-account-52c1',
      CARRIER_B_API_SECRET: 'env-secret-b8e044',
    };
    const root = fileURLToPath(new URL('../../', import.meta.url));
    // The compiled sandbox (dist/ is built by the suite's global setup) under node itself.
    const started = spawn(process.execPath, ['dist/sandbox/main.js'], {
      cwd: root,
      env: { ...process.env, ...secrets, SANDBOX_321_PORT: '0', SANDBOX_CARRIER_B_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    const listening = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        if (output.includes('carrier_b sandbox listening on')) resolve();
      };
      started.stdout!.on('data', onData);
      started.stderr!.on('data', onData);
      started.once('exit', (code) => reject(new Error(`sandbox exited early (${code}): ${output}`)));
    });
    await listening;

    const urls = [...output.matchAll(/listening on (http:\/\/\S+)/g)].map((match) => match[1]!);
    expect(urls).toHaveLength(2);
    for (const url of urls) expect((await fetch(`${url}/_sandbox/clock`)).status).toBe(200);

    const exited = once(started, 'exit');
    started.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
  });
});
