// Superuser-only operations refuse everyone else: 403 `{detail}` on REST, FORBIDDEN on GraphQL,
// before validation and without changing anything. The list is checked against the operation
// table, so operations added later (balance adjustment, billing code) are covered too.

import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/index.js';
import { noData, statusesOf } from '../support/gateway.js';
import { errorOf } from '../support/surfaces.js';
import { useGateway } from '../support/use-gateway.js';

let admin: string;
let plain: string;

const FORBIDDEN_BODY = { detail: "The user doesn't have enough privileges" };

const gateway = useGateway();
beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
  ({ token: plain } = await gateway.user({ plans: ['BASIC'] }));
});

const superuserOnly = operations.filter((operation) => operation.superuserOnly);

describe('the table', () => {
  it('marks the spec superuser-only paths and the management fields superuser-only', () => {
    const names = superuserOnly.map((operation) => operation.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'settings',
        'setting',
        'updateSetting',
        'carrierStatuses',
        'createUser',
        'updateUser',
        'createPlan',
        'updatePlan',
        'authorizePlans',
        'issueToken',
        'revokeToken',
        'users',
        'plans',
      ]),
    );
    const paths = superuserOnly.flatMap((operation) =>
      operation.rest ? [`${operation.rest.method} ${operation.rest.path}`] : [],
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /settings/',
        'GET /settings/{key}',
        'PUT /settings/{key}',
        'GET /settings/carriers/status',
      ]),
    );
    // Paths written by other areas: superuser-only as soon as they exist.
    const spec = ['POST /sim/balance/adjust/', 'POST /sim/balance/adjust-multiple/', 'POST /sim/billing-code/change/'];
    const all = operations.flatMap((operation) =>
      operation.rest ? [`${operation.rest.method} ${operation.rest.path}`] : [],
    );
    for (const path of spec.filter((candidate) => all.includes(candidate))) expect(paths).toContain(path);
  });

  it('leaves ordinary operations open to every user', () => {
    const open = operations.filter((operation) => !operation.superuserOnly).map((operation) => operation.name);
    expect(open).toEqual(expect.arrayContaining(['me', 'transaction', 'usage', 'suspendLine', 'changePlan']));
  });
});

const restRoutes = superuserOnly.filter((operation) => operation.rest).map((operation) => operation.rest!);

describe('REST', () => {
  it.each(restRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 403 {detail} to a non-superuser',
    async (_name, route) => {
      const path = route.path.replace('{key}', 'maintenance_mode').replace(/\{[a-z_]+\}/g, '3215550001');
      const body = route.method === 'GET' ? undefined : {};
      const refused = await gateway.rest(route.method, path, { token: plain, body });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN_BODY);
      // Without a token it is 401, not 403.
      expect((await gateway.rest(route.method, path, { body })).status).toBe(401);
    },
  );

  it('changes nothing when a non-superuser PUTs a setting, even a valid one', async () => {
    const refused = await gateway.rest('PUT', '/settings/maintenance_mode', { token: plain, body: { value: 'true' } });
    expect(refused.status).toBe(403);
    const current = await gateway.rest('GET', '/settings/maintenance_mode', { token: admin });
    expect(current.body.value).toBe('false');
  });

  it('answers a superuser on the same paths', async () => {
    expect((await gateway.rest('GET', '/settings/', { token: admin })).status).toBe(200);
    expect((await gateway.rest('GET', '/settings/default_carrier', { token: admin })).status).toBe(200);
    expect((await gateway.rest('GET', '/settings/carriers/status', { token: admin })).status).toBe(200);
    expect(
      (
        await gateway.rest('PUT', '/settings/carrier_321_display_name', {
          token: admin,
          body: { value: '"Carrier 321"' },
        })
      ).status,
    ).toBe(200);
  });
});

// ---- GraphQL: a minimal well-formed call of every superuser-only field, from introspection ----

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface InputField {
  name: string;
  type: TypeRef;
}
interface IntrospectedType {
  name: string;
  kind: string;
  inputFields: InputField[] | null;
  enumValues: { name: string }[] | null;
  fields: { name: string; args: InputField[]; type: TypeRef }[] | null;
}

let types: Map<string, IntrospectedType>;

async function introspect(): Promise<Map<string, IntrospectedType>> {
  const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
  const answer = await gateway.graphql<{ __schema: { types: IntrospectedType[] } }>(
    `{ __schema { types { name kind enumValues { name } inputFields { name type { ${typeRef} } } fields { name type { ${typeRef} } args { name type { ${typeRef} } } } } } }`,
    // Introspection needs a token by default (INTROSPECTION=authenticated).
    { token: plain },
  );
  return new Map(answer.data!.__schema.types.map((type) => [type.name, type]));
}

/** A GraphQL literal for a required value of `type`. */
function literal(type: TypeRef): string {
  if (type.kind === 'NON_NULL') return literal(type.ofType!);
  if (type.kind === 'LIST') return `[${literal(type.ofType!)}]`;
  const named = types.get(type.name!)!;
  if (named.kind === 'ENUM') return named.enumValues![0]!.name;
  if (named.kind === 'INPUT_OBJECT') return `{ ${requiredFields(named.inputFields!)} }`;
  if (type.name === 'Int' || type.name === 'Float') return '1';
  if (type.name === 'Boolean') return 'true';
  return '"3215550001"';
}

function requiredFields(fields: InputField[]): string {
  return fields
    .filter((field) => field.type.kind === 'NON_NULL')
    .map((field) => `${field.name}: ${literal(field.type)}`)
    .join(', ');
}

/** Selects the scalar fields of an output type (one level, enough to be a valid document). */
function selection(type: TypeRef): string {
  let inner = type;
  while (inner.ofType) inner = inner.ofType;
  const named = types.get(inner.name!)!;
  if (named.kind !== 'OBJECT') return '';
  const scalar = named.fields!.find((field) => {
    let leaf = field.type;
    while (leaf.ofType) leaf = leaf.ofType;
    return types.get(leaf.name!)!.kind === 'SCALAR' || types.get(leaf.name!)!.kind === 'ENUM';
  });
  return `{ ${scalar!.name} }`;
}

function documentFor(name: string, kind: 'query' | 'mutation'): string {
  const root = types.get(kind === 'query' ? 'Query' : 'Mutation')!;
  const field = root.fields!.find((candidate) => candidate.name === name)!;
  const args = requiredFields(field.args);
  return `${kind} { ${name}${args ? `(${args})` : ''} ${selection(field.type)} }`;
}

describe('GraphQL', () => {
  beforeAll(async () => {
    types = await introspect();
  });

  it('refuses every superuser-only field to a non-superuser with FORBIDDEN (HTTP 403)', async () => {
    expect(superuserOnly.length).toBeGreaterThanOrEqual(13);
    for (const operation of superuserOnly) {
      const document = documentFor(operation.name, operation.kind);
      const answer = await gateway.graphql(document, { token: plain });
      expect({ field: operation.name, ...statusesOf(answer), ...errorOf(answer) }).toEqual({
        field: operation.name,
        http: 200,
        rest: 403,
        code: 'FORBIDDEN',
        message: "The user doesn't have enough privileges",
      });
      expect(noData(answer)).toBe(true);
    }
  });

  it('refuses a plan price past 1,000,000 (1e308 was stored) and keeps no plan', async () => {
    const planId = `PRICEY-${Date.now()}`;
    const priced = (price: number) =>
      gateway.graphql<{ createPlan: { price: number } }>(
        `mutation ($price: Float) { createPlan(input: { planId: "${planId}", name: "Plan", carrierPlanId: "SOC1", price: $price }) { price } }`,
        { token: admin, variables: { price } },
      );
    const refused = await priced(1e308);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect(refused.errors?.[0]?.message).toContain('price must be at most 1000000');
    expect(await gateway.app.services.db.plan.findUnique({ where: { planId } })).toBeNull();
    expect((await priced(1_000_000)).data).toEqual({ createPlan: { price: 1_000_000 } });
  });

  it('lets a superuser through the same management fields', async () => {
    const name = `made-${Date.now()}`;
    const created = await gateway.graphql(
      `mutation { createUser(input: { name: "${name}" }) { name superuser active } }`,
      { token: admin },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data).toEqual({ createUser: { name, superuser: false, active: true } });
    const plan = await gateway.graphql(
      `mutation { createPlan(input: { planId: "P-${name}", name: "Plan", carrierPlanId: "SOC1", carrier: CARRIER_B, price: 9.5 }) { planId carrier price } }`,
      {
        token: admin,
      },
    );
    expect(plan.data).toEqual({ createPlan: { planId: `P-${name}`, carrier: 'CARRIER_B', price: 9.5 } });
    const authorized = await gateway.graphql(
      `mutation { authorizePlans(input: { user: "${name}", planIds: ["P-${name}"] }) { planId } }`,
      { token: admin },
    );
    expect(authorized.data).toEqual({ authorizePlans: [{ planId: `P-${name}` }] });
    const issued = await gateway.graphql<{ issueToken: { token: string } }>(
      `mutation { issueToken(input: { user: "${name}", ttl: "1h" }) { token id expiresAt } }`,
      { token: admin },
    );
    const token = issued.data!.issueToken.token;
    const me = await gateway.graphql('{ me { name authorizedPlans { planId carrier } } }', { token });
    expect(me.data).toEqual({ me: { name, authorizedPlans: [{ planId: `P-${name}`, carrier: 'CARRIER_B' }] } });
    const users = await gateway.graphql<{ users: { name: string }[] }>('{ users { name } }', { token: admin });
    expect(users.data!.users.map((user) => user.name)).toContain(name);
  });
});
