// Every input is bounded and every validator runs in linear time: walks the input schema of
// every operation of the table (the schemas REST and GraphQL share), asserts a maximum length
// on each string and a maximum size on each array, checks every regex with recheck (plus every
// regex literal of src/), runs the schema regexes on long near-matches, and sends oversized
// values through both surfaces of the real gateway.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkSync } from 'recheck';
import { recheckStatuses } from './recheck-cache.js';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { def } from '../../src/lib/zod-introspect.js';
import { EMAIL_PATTERN } from '../../src/operations/activation/fields.js';
import { operations } from '../../src/operations/index.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { activateOnGraphQL, activationBody } from '../e2e/activation/activations.js';
import { ALL_PLANS, createPlans } from '../support/plans.js';
import { REPO_ROOT } from '../support/processes.js';

interface Finding {
  path: string;
  problem: string;
}

interface Walk {
  findings: Finding[];
  regexes: Map<string, { regex: RegExp; path: string }>;
}

/** Checks of a schema (zod keeps them on the def in order). */
const checksOf = (schema: z.ZodType) =>
  (def(schema).checks ?? []).map((check) => check._zod.def as z.core.$ZodCheckDef & Record<string, unknown>);

function walk(schema: z.ZodType, path: string, into: Walk): void {
  const d = def(schema);
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return walk(d.innerType as z.ZodType, path, into);
    case 'pipe':
      walk(d.in as z.ZodType, path, into);
      return walk(d.out as z.ZodType, path, into);
    case 'object':
      for (const [key, member] of Object.entries(d.shape as Record<string, z.ZodType>))
        walk(member, `${path}.${key}`, into);
      return;
    case 'union':
      (d.options as z.ZodType[]).forEach((option, index) => walk(option, `${path}|${index}`, into));
      return;
    case 'array': {
      if (!checksOf(schema).some((check) => check.check === 'max_length'))
        into.findings.push({ path, problem: 'array without a maximum size' });
      return walk(d.element as z.ZodType, `${path}[]`, into);
    }
    case 'string': {
      const checks = checksOf(schema);
      const max = checks.findIndex((check) => check.check === 'max_length');
      if (max === -1) into.findings.push({ path, problem: 'string without a maximum length' });
      checks.forEach((check, index) => {
        if (check.check !== 'string_format') return;
        const pattern = check.pattern as RegExp;
        into.regexes.set(`${pattern.source}/${pattern.flags}`, { regex: pattern, path });
        // The cap must come first and abort, so the pattern never sees an oversized value.
        if (max === -1 || max > index || checks[max]!.abort !== true)
          into.findings.push({ path, problem: `pattern ${pattern} runs before an aborting length cap` });
      });
      return;
    }
    case 'enum':
    case 'literal':
    case 'boolean':
    case 'number':
    case 'int':
      return;
    default:
      into.findings.push({ path, problem: `unexpected input type ${d.type}: decide its bound` });
  }
}

function walkAll(): Walk {
  const into: Walk = { findings: [], regexes: new Map() };
  for (const operation of operations) walk(operation.input, operation.name, into);
  return into;
}

/** Every regex literal in src/ (outside generated code), with where it is. */
function sourceRegexes(): { regex: RegExp; where: string }[] {
  const found: { regex: RegExp; where: string }[] = [];
  const visit = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const file = join(directory, name);
      if (name === 'generated') continue;
      if (statSync(file).isDirectory()) visit(file);
      else if (name.endsWith('.ts')) {
        const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
        const scan = (node: ts.Node) => {
          if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
            const text = node.getText(source);
            const end = text.lastIndexOf('/');
            const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
            found.push({
              regex: new RegExp(text.slice(1, end), text.slice(end + 1)),
              where: `${file.slice(REPO_ROOT.length)}:${line}`,
            });
          }
          ts.forEachChild(node, scan);
        };
        scan(source);
      }
    }
  };
  visit(join(REPO_ROOT, 'src'));
  return found;
}

/** Long strings close to what the field patterns accept, each ending so that none can match. */
function nearMatches(length: number): string[] {
  const fill = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  const tail = ' @\n!';
  return [
    fill('1') + tail,
    fill('a') + tail,
    fill('aA0_.-') + tail,
    `a@${fill('a.')}${tail}`,
    `${fill('a')}@${fill('a')}.${tail}`,
    fill('a@') + tail,
    fill('2026-01-01 ') + tail,
    fill('12:') + tail,
    fill(' ') + tail,
    `${fill('1')}-${tail}`,
  ];
}

describe('operation input schemas', () => {
  const { findings, regexes } = walkAll();

  it('cap every string field and every array, each pattern behind an aborting length cap', () => {
    expect(findings).toEqual([]);
    // The walk reached the table: a walker that saw nothing could not fail.
    expect(operations.length).toBeGreaterThan(50);
    expect(regexes.size).toBeGreaterThan(10);
  });

  it('use only regexes recheck calls safe', () => {
    // The control case: the email pattern this replaced (60 KB took 6 s) is caught.
    expect(checkSync(String.raw`^[^@\s]+@[^@\s]+\.[^@\s]+$`, '').status).toBe('vulnerable');
    const checked = [...regexes.values()];
    const statuses = recheckStatuses(checked.map(({ regex }) => regex));
    const unsafe = checked
      .map(({ regex, path }, index) => ({ path, regex: String(regex), status: statuses[index] }))
      .filter((result) => result.status !== 'safe');
    expect(unsafe).toEqual([]);
  });

  it('refuse 10,000-character near-matches with every regex', () => {
    const strings = nearMatches(10_000);
    for (const { regex, path } of regexes.values()) {
      for (const text of strings) expect(regex.test(text), `${path} ${String(regex)}`).toBe(false);
    }
  });

  it('accept the addresses a carrier takes and refuse the quadratic case of the old email pattern', () => {
    expect(EMAIL_PATTERN.test('jane.doe+sim@mail.example.co.uk')).toBe(true);
    expect(EMAIL_PATTERN.test('jane@localhost')).toBe(false);
    expect(EMAIL_PATTERN.test('jane@example..com')).toBe(false);
    expect(EMAIL_PATTERN.test(`a@${'a.'.repeat(30_000)}`)).toBe(false);
  });
});

describe('regex literals of src/', () => {
  it('are all safe according to recheck', () => {
    const found = sourceRegexes();
    expect(found.length).toBeGreaterThan(20);
    const statuses = recheckStatuses(found.map(({ regex }) => regex));
    const unsafe = found
      .map(({ regex, where }, index) => ({ where, regex: String(regex), status: statuses[index] }))
      .filter((result) => result.status !== 'safe');
    expect(unsafe).toEqual([]);
  });
});

describe('oversized values on the real gateway', () => {
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    gateway = await startGateway();
    await createPlans(gateway);
    ({ token } = await gateway.user({ plans: ALL_PLANS }));
  });
  afterAll(() => gateway.close());

  const carrierCalls = async () =>
    (await gateway.app.services.metrics.carrierOutcomes.get()).values.reduce((sum, value) => sum + value.value, 0);

  it('answers 422 on REST and BAD_USER_INPUT on GraphQL to a 60 KB email', async () => {
    const email = `${'a'.repeat(30_000)}@${'b.'.repeat(15_000)}`;
    const rest = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ is_esim: 'Y', email }) });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'email'], msg: 'email must be at most 254 characters' }],
    });
    const graphql = await activateOnGraphQL(gateway, token, activationBody({ is_esim: 'Y', email }));
    expect(graphql.data?.activateSim ?? null).toBeNull();
    expect(graphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(graphql.errors).length).toBeLessThan(2_000);
  });

  it('answers 422 to a 300 KB address and nothing reaches the carrier', async () => {
    const before = await carrierCalls();
    const transactionId = `LONG-ADDRESS-${Date.now()}`;
    const body = activationBody({ address1: 'x'.repeat(300_000), transaction_id: transactionId });
    const rest = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'address1'], msg: 'address1 must be at most 100 characters' }],
    });
    expect(await gateway.app.services.transactions.find(transactionId)).toBeNull();
    expect(await carrierCalls()).toBe(before);
    const graphql = await activateOnGraphQL(gateway, token, { ...body, transaction_id: `${transactionId}-GQL` });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await gateway.app.services.transactions.find(`${transactionId}-GQL`)).toBeNull();
    expect(await carrierCalls()).toBe(before);
    // The same activation with a real address goes through: the cap, not the gateway, refused.
    const accepted = await gateway.rest('POST', '/sim/activate/', { token, body: { ...body, address1: '1 Main St' } });
    expect(accepted.status).toBe(200);
    expect(await carrierCalls()).toBe(before + 1);
  });

  it('accepts fields at their caps', async () => {
    const body = activationBody({
      address1: 'a'.repeat(100),
      address2: 'b'.repeat(100),
      city: 'c'.repeat(50),
      billing_code: 'd'.repeat(50),
    });
    expect((await gateway.rest('POST', '/sim/activate/', { token, body })).status).toBe(200);
  });
});
