// The admin command line against a temporary SQLite database. Two commands run as real child
// processes, exactly as README documents them (`npm run --silent admin -- …`, and the compiled
// `node dist/cli/main.js`): the token printed alone on stdout, an exit code and a one-line
// message. Every other case calls the same entry, runCli, in this process (a spawn costs npm's,
// Node's and Prisma's start-up, about a second of CPU each). Then a gateway on the same database
// accepts the token the CLI issued, and refuses it once the CLI revoked it.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../src/sandbox/start.js';
import { startGateway, TEST_JWT_SECRET, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';
import { run, type ProcessResult } from '../support/processes.js';
import { eventually } from '../support/eventually.js';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let env: Record<string, string>;
let gateway: TestGateway;

/** One admin command run in this process, with its own environment and captured output. */
async function cli(args: string[], commandEnv: Record<string, string> = env): Promise<CliResult> {
  const output = { stdout: '', stderr: '' };
  const code = await runCli(args, {
    env: commandEnv,
    stdout: { write: (text: string) => (output.stdout += text) },
    stderr: { write: (text: string) => (output.stderr += text) },
  });
  return { code, ...output };
}
const admin = (...args: string[]): Promise<CliResult> => cli(args);

/** stderr without npm's own configuration warnings (they depend on the machine, not on us). */
const messageOf = (result: ProcessResult | CliResult): string =>
  result.stderr
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n')
    .trim();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-cli-'));
  env = { DATABASE_URL: `file:${join(dir, 'gateway.db')}`, DATA_DIR: dir, JWT_SECRET: TEST_JWT_SECRET };
  // The CLI creates and migrates the database itself; independent commands run side by side.
  const [alice, bob, plan] = await Promise.all([
    admin('user', 'create', 'alice', '--superuser'),
    admin('user', 'create', 'bob', '--carrier', 'carrier_b'),
    admin(
      'plan',
      'create',
      'BASIC',
      '--name',
      'Basic 1GB',
      '--carrier-plan-id',
      'BASIC1GB',
      '--carrier',
      '321',
      '--price',
      '15',
      '--description',
      'Entry plan',
      '--wfc',
    ),
  ]);
  for (const result of [alice, bob, plan])
    expect({ code: result.code, stderr: messageOf(result) }).toEqual({ code: 0, stderr: '' });
  // Caches as deployed (minutes): the gateway hears the CLI's writes through SQLite's data_version.
  gateway = await startGateway({ env: { DATABASE_URL: env.DATABASE_URL! } });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the documented commands', () => {
  it('created the users and the plan with every flag', async () => {
    const users = await gateway.app.services.directory.listUsers();
    expect(
      users.map(({ name, superuser, carrierPreference, active }) => ({ name, superuser, carrierPreference, active })),
    ).toEqual([
      { name: 'alice', superuser: true, carrierPreference: null, active: true },
      { name: 'bob', superuser: false, carrierPreference: 'carrier_b', active: true },
    ]);
    expect(await gateway.app.services.directory.plan('BASIC')).toEqual({
      planId: 'BASIC',
      name: 'Basic 1GB',
      carrierPlanId: 'BASIC1GB',
      carrier: '321',
      description: 'Entry plan',
      price: 15,
      wfc: true,
    });
  });

  it('authorizes a plan, issues a token the gateway accepts (through `npm run --silent admin`), and revokes it', async () => {
    const [authorized, issued] = await Promise.all([
      admin('plan', 'authorize', 'bob', 'BASIC'),
      run('npm', ['run', '--silent', 'admin', '--', 'token', 'issue', 'bob', '--ttl', '12h'], env),
    ]);
    expect(authorized.code).toBe(0);
    expect(JSON.parse(authorized.stdout)).toEqual([expect.objectContaining({ planId: 'BASIC' })]);
    expect({ code: issued.code, stderr: messageOf(issued) }).toEqual({ code: 0, stderr: '' });
    // The token alone, on one line, so that TOKEN=$(…) works.
    expect(issued.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = issued.stdout.trim();

    const me = await gateway.graphql('{ me { name carrierPreference authorizedPlans { planId } } }', { token });
    expect(me.errors).toBeUndefined();
    expect(me.data).toEqual({
      me: { name: 'bob', carrierPreference: 'CARRIER_B', authorizedPlans: [{ planId: 'BASIC' }] },
    });
    expect((await gateway.rest('GET', '/sim/usage/6465550001', { token })).status).not.toBe(401);

    const revoked = await admin('token', 'revoke', token);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: expect.any(String) });
    // Another process wrote: the gateway drops its caches within one data_version poll (250 ms).
    const refusal = () => gateway.rest('GET', '/sim/usage/6465550001', { token });
    expect(await eventually(async () => (await refusal()).status === 401, 1000)).toBe(true);
    expect((await refusal()).body).toEqual({ detail: 'Token has been revoked' });
  }, 30_000);

  it('issues a token in this process too: the token alone on stdout', async () => {
    const issued = await admin('token', 'issue', 'alice');
    expect({ code: issued.code, stderr: issued.stderr }).toEqual({ code: 0, stderr: '' });
    expect(issued.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  });
});

describe('line ownership', () => {
  /** The CLI pointed at the test gateway's sandbox carriers, where it looks up lines the gateway never saw. */
  const lineAdmin = (...args: string[]): Promise<CliResult> =>
    cli(['line', ...args], {
      ...env,
      CARRIER_321_URL: gateway.sandboxes.urls['321'],
      CARRIER_321_API_KEY: DEFAULT_SANDBOX_CREDENTIALS['321'].apiKey,
      CARRIER_B_URL: gateway.sandboxes.urls.carrier_b,
      CARRIER_B_ACCOUNT_ID: DEFAULT_SANDBOX_CREDENTIALS.carrier_b.accountId,
      CARRIER_B_API_SECRET: DEFAULT_SANDBOX_CREDENTIALS.carrier_b.apiSecret,
    });
  const ownerOf = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn)?.ownerId;
  // The CLI writes from its own process: the gateway hears it within a data_version poll.
  const ownerBecomes = (mdn: string, owner: string | null) =>
    eventually(async () => (await ownerOf(mdn)) === owner, 1000);

  it('assigns a line the gateway never saw (found at its carrier), reassigns it and makes it unowned', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b', register: false });
    const assigned = await lineAdmin('assign', line.mdn, 'bob');
    expect({ code: assigned.code, stderr: messageOf(assigned) }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(assigned.stdout)).toEqual({
      mdn: line.mdn,
      sim: line.sim,
      carrier: 'carrier_b',
      status: 'ACTIVE',
      owner: 'bob',
    });
    const directory = gateway.app.services.directory;
    expect(await ownerBecomes(line.mdn, (await directory.userByName('bob')).id)).toBe(true);

    const reassigned = await lineAdmin('assign', line.mdn, 'alice', '--carrier', 'carrier_b');
    expect(JSON.parse(reassigned.stdout)).toMatchObject({ owner: 'alice' });
    expect(await ownerBecomes(line.mdn, (await directory.userByName('alice')).id)).toBe(true);

    const cleared = await lineAdmin('unassign', line.mdn);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ owner: null });
    expect(await ownerBecomes(line.mdn, null)).toBe(true);
  });

  it.each([
    [['assign', '5550001234', 'bob'], /^Line 5550001234 is not known to any enabled carrier$/],
    [['assign', '5550009876'], /line assign needs 2 arguments/],
    [['assign', '12', 'bob'], /^<mdn>: mdn must be exactly 10 digits$/],
    [['assign', '5550009876', 'nobody'], /^No user named "nobody"$/],
    [['unassign', '5550009876', '--carrier', 'carrier_x'], /^--carrier: carrier must be 321 or carrier_b$/],
  ])('refuses `line %j` with one clear message and records nothing', async (args, message) => {
    const result = await lineAdmin(...args);
    expect({ code: result.code === 0 ? 0 : 'non-zero', stdout: result.stdout }).toEqual({
      code: 'non-zero',
      stdout: '',
    });
    expect(messageOf(result)).toMatch(message);
    expect(await ownerOf('5550001234')).toBeUndefined();
    expect(await ownerOf('5550009876')).toBeUndefined();
  });
});

describe('where the database is', () => {
  it('keeps the embedded database in DATA_DIR when DATABASE_URL is unset, as the gateway does', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'line-gateway-cli-data-'));
    try {
      const created = await cli(['user', 'create', 'carol'], {
        DATA_DIR: `${elsewhere}/`,
        JWT_SECRET: TEST_JWT_SECRET,
      });
      expect(created.code, created.stderr).toBe(0);
      expect(existsSync(join(elsewhere, 'gateway.db'))).toBe(true);
      // The same DATA_DIR reads the same database: carol is there, and only there.
      const listed = await cli(['user', 'list'], { DATA_DIR: elsewhere, JWT_SECRET: TEST_JWT_SECRET });
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ name: 'carol' })]);
      expect(JSON.parse((await admin('user', 'list')).stdout)).not.toContainEqual(
        expect.objectContaining({ name: 'carol' }),
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('bad input', () => {
  it.each([
    [['user', 'create', 'alice'], /already exists/],
    [['user', 'create', 'carol', '--carrier', 'carrier_x'], /--carrier: carrier must be 321 or carrier_b/],
    [['user', 'create', 'bad name!'], /name must be/],
    [['user', 'create', 'dave', 'extra'], /unexpected argument "extra"/],
    [['user', 'create', 'erin', '--ttl', '3h'], /does not take --ttl/],
    [['plan', 'create', 'GOLD', '--name', 'Gold'], /--carrier-plan-id: Field required/],
    [['plan', 'create', 'GOLD', '--name', 'Gold', '--carrier-plan-id', 'G1', '--price', ''], /--price: /],
    [
      ['plan', 'create', 'GOLD', '--name', 'Gold', '--carrier-plan-id', 'G1', '--price=-1'],
      /--price: price must not be negative/,
    ],
    [['plan', 'create', 'GOLD', '--name', 'Gold', '--carrier-plan-id', 'G1', '--unknown-flag'], /unknown-flag/],
    [['plan', 'authorize', 'bob', 'NOPE'], /No plan with plan_id "NOPE"/],
    [['token', 'issue', 'nobody'], /No user named "nobody"/],
    [['token', 'issue', 'bob', '--ttl', 'forever'], /--ttl: ttl must look like/],
    [['token', 'revoke', 'not-a-token-id'], /No such token/],
    [['frobnicate'], /Unknown command/],
  ])('`%j` exits non-zero with a clear message on stderr and changes nothing', async (args, message) => {
    const result = await admin(...args);
    expect({ code: result.code === 0 ? 0 : 'non-zero', stdout: result.stdout }).toEqual({
      code: 'non-zero',
      stdout: '',
    });
    expect(messageOf(result)).toMatch(message);
    // One clear message, not a stack trace.
    expect(messageOf(result)).not.toMatch(/\n\s+at /);
    const directory = gateway.app.services.directory;
    expect((await directory.listUsers()).map((user) => user.name)).toEqual(['alice', 'bob']);
    expect((await directory.listPlans()).map((plan) => plan.planId)).toEqual(['BASIC']);
    expect(await directory.authorizedPlanIds((await directory.userByName('bob')).id)).toEqual(new Set(['BASIC']));
  });

  it('names the variable when the environment is wrong (the compiled CLI, `node dist/cli/main.js`)', async () => {
    const result = await run(process.execPath, ['dist/cli/main.js', 'user', 'list'], {
      ...env,
      DATABASE_URL: 'mysql://x',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Invalid DATABASE_URL: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('never makes up a JWT secret for a database that holds tokens (another DATA_DIR): no token the gateway would refuse', async () => {
    expect((await admin('token', 'issue', 'alice', '--ttl', '1h')).code).toBe(0);
    const elsewhere = mkdtempSync(join(tmpdir(), 'line-gateway-cli-other-'));
    try {
      const result = await cli(['token', 'issue', 'alice', '--ttl', '1h'], {
        DATABASE_URL: env.DATABASE_URL!,
        DATA_DIR: elsewhere,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(messageOf(result)).toMatch(/^No JWT secret: JWT_SECRET is unset and .*jwt-secret does not exist/);
      expect(existsSync(join(elsewhere, 'jwt-secret'))).toBe(false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('names the variable when the environment is wrong (in this process)', async () => {
    const result = await cli(['user', 'list'], { ...env, DATABASE_URL: 'mysql://x' });
    expect(result.code).toBe(1);
    expect(messageOf(result)).toMatch(/^Invalid DATABASE_URL: /);
    expect(messageOf(result).split('\n')).toHaveLength(1);
  });

  it('prints every configuration variable for `config`', async () => {
    const result = await admin('config');
    expect(result.code).toBe(0);
    const names = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect(names).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'JWT_SECRET', 'TOKEN_TTL', 'CACHE_TTL_MS', 'LOG_LEVEL']),
    );
    expect(result.stdout).not.toContain(TEST_JWT_SECRET);
  });
});
