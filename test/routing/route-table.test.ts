// The REST route table (src/rest/routes.ts) on its own: one route per operation path, literal
// segments before parameters whatever the table's order, FastAPI's trailing-slash redirects,
// 405 for a path served under another method, and path parameters decoded (or refused).

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../src/operations/define.js';
import type { HttpMethod, RegisteredOperation } from '../../src/pipeline/operation.js';
import { operations } from '../../src/operations/index.js';
import { compileRoutes, lookup, type RestRoute } from '../../src/rest/routes.js';

const routes = compileRoutes(operations);

/** A route's path with every parameter given a sample value. */
const samplePath = (route: RestRoute) => route.path.replace(/\{[^}]+\}/g, 'p1');

/** A do-nothing operation served at `method path` (only its route matters here). */
function served(method: HttpMethod, path: string, name = path): RegisteredOperation {
  return defineOperation({
    name,
    kind: method === 'GET' ? 'query' : 'mutation',
    description: name,
    rest: { method, path },
    input: z.object({}),
    output: z.object({}),
    routing: 'none',
    handle: async () => ({ status: 200, body: {} }),
  });
}

describe('the route table', () => {
  it('has exactly one route for each operation with a REST binding, under its method and path', () => {
    const bound = operations.filter((operation) => operation.rest);
    expect(routes).toHaveLength(bound.length);
    for (const operation of bound) {
      expect(
        routes.filter((route) => route.operation === operation).map((route) => `${route.method} ${route.path}`),
      ).toEqual([`${operation.rest!.method} ${operation.rest!.path}`]);
    }
    expect(new Set(routes.map((route) => `${route.method} ${route.path}`)).size).toBe(routes.length);
  });

  it('finds every route by its own path, with its parameters in camelCase', () => {
    for (const route of routes) {
      const found = lookup(routes, route.method, samplePath(route));
      expect(found.kind === 'match' && found.match.route, `${route.method} ${route.path}`).toBe(route);
      if (found.kind === 'match') expect(Object.keys(found.match.params)).toEqual([...route.parameters.values()]);
    }
    const usage = lookup(routes, 'GET', '/sim/coverage/30301');
    expect(usage).toMatchObject({ kind: 'match', match: { params: { zipCode: '30301' } } });
  });

  it('prefers literal segments to parameters, whatever order the operations are listed in', () => {
    const parameter = served('GET', '/settings/{key}');
    const literal = served('GET', '/settings/carriers');
    for (const table of [compileRoutes([parameter, literal]), compileRoutes([literal, parameter])]) {
      expect(lookup(table, 'GET', '/settings/carriers')).toMatchObject({
        kind: 'match',
        match: { route: { operation: literal } },
      });
      expect(lookup(table, 'GET', '/settings/other')).toMatchObject({
        kind: 'match',
        match: { route: { operation: parameter }, params: { key: 'other' } },
      });
    }
  });

  it('redirects a path missing or adding its trailing slash to the route, for the same method only', () => {
    for (const route of routes) {
      const path = samplePath(route);
      const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
      // As in FastAPI, a path that another route serves under another method answers 405 first.
      if (lookup(routes, 'GET', toggled).kind === 'match' || lookup(routes, 'POST', toggled).kind === 'match') continue;
      expect(lookup(routes, route.method, toggled), `${route.method} ${toggled}`).toEqual({
        kind: 'redirect',
        location: path,
      });
    }
    expect(lookup(routes, 'DELETE', '/sim/suspend')).toEqual({ kind: 'not-found' });
    // GET /sim/imei/{imei} serves /sim/imei/change, so POST /sim/imei/change (no slash) is 405, not a redirect.
    expect(lookup(routes, 'POST', '/sim/imei/change')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['GET'],
      template: '/sim/imei/{imei}',
    });
  });

  it('answers method-not-allowed with the methods a path is served under, and its template', () => {
    expect(lookup(routes, 'GET', '/sim/suspend/')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['POST'],
      template: '/sim/suspend/',
    });
    const setting = lookup(routes, 'DELETE', '/settings/maintenance_mode');
    expect(setting.kind === 'method-not-allowed' && [...setting.allowed].sort()).toEqual(['GET', 'PUT']);
    expect(setting).toMatchObject({ template: '/settings/{key}' });
  });

  it('decodes path parameters, and matches no route for an empty or malformed one', () => {
    expect(lookup(routes, 'GET', '/sim/usage/%33%32%31')).toMatchObject({
      kind: 'match',
      match: { params: { mdn: '321' } },
    });
    expect(lookup(routes, 'GET', '/sim/usage/%ZZ')).toEqual({ kind: 'not-found' });
    expect(lookup(routes, 'GET', '/sim/usage/')).not.toMatchObject({ kind: 'match' });
    expect(lookup(routes, 'GET', '/nothing/here')).toEqual({ kind: 'not-found' });
  });
});
