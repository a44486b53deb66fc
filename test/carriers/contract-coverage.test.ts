// Every method of the carrier contract has an implementation in each carrier tree: an adapter
// method, a sandbox core method, and a route in each sandbox wire server (extended methods in
// the carriers that offer them). The expected list is read from the contract's area files at
// run time, so a method added to the contract fails here until every piece exists. The
// compiler already names each missing piece (see docs/carriers.md#adding-a-carrier-method);
// this test also catches what it cannot: a route shadowed by another, a wire name used twice.

import { afterAll, describe, expect, it } from 'vitest';
import { createCarrier321Adapter } from '../../src/carriers/carrier-321/adapter.js';
import { createCarrierBAdapter } from '../../src/carriers/carrier-b/adapter.js';
import { CARRIER_METHODS, CARRIER_METHODS_BY_AREA, EXTENDED_METHODS } from '../../src/carriers/types.js';
import { carrier321Routes } from '../../src/sandbox/carrier-321/server.js';
import { carrierBMethods, methodTable } from '../../src/sandbox/carrier-b/method-table.js';
import { SandboxCarrier } from '../../src/sandbox/core/index.js';
import type { SandboxRoute } from '../../src/sandbox/http-kit.js';

/** What an adapter has besides the contract's methods. */
const ADAPTER_EXTRAS = ['carrier', 'extended', 'probe', 'scoped', 'close'];

const sorted = (names: Iterable<string>): string[] => [...names].sort();
const methodsOf = (object: object): string[] =>
  sorted(Object.keys(object).filter((key) => typeof (object as Record<string, unknown>)[key] === 'function'));

// Adapters open no connection until a method is called; these are never called.
const adapters = {
  '321': createCarrier321Adapter({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused', timeoutMs: 1000, retries: 0 }),
  carrier_b: createCarrierBAdapter({
    baseUrl: 'http://127.0.0.1:9',
    accountId: 'unused',
    apiSecret: 'unused',
    timeoutMs: 1000,
    retries: 0,
  }),
};
afterAll(() => Promise.all([adapters['321'].close(), adapters.carrier_b.close()]));

describe('the contract', () => {
  it('lists each method once, in one area, apart from the extended ones', () => {
    expect(new Set(CARRIER_METHODS).size).toBe(CARRIER_METHODS.length);
    expect(Object.values(CARRIER_METHODS_BY_AREA).flat()).toEqual(CARRIER_METHODS);
    expect(new Set(EXTENDED_METHODS).size).toBe(EXTENDED_METHODS.length);
    expect(CARRIER_METHODS.filter((name) => (EXTENDED_METHODS as readonly string[]).includes(name))).toEqual([]);
    // A sanity floor: the spec's 28 operations, the E911 validation dry runs use, and the 14 extended ones.
    expect(CARRIER_METHODS.length).toBe(29);
    expect(EXTENDED_METHODS.length).toBe(14);
  });
});

describe('the adapters', () => {
  it.each(['321', 'carrier_b'] as const)('the %s adapter has exactly the contract methods', (carrier) => {
    const adapter = adapters[carrier];
    expect(methodsOf(adapter).filter((name) => !ADAPTER_EXTRAS.includes(name))).toEqual(sorted(CARRIER_METHODS));
  });

  it('carrier 321 has exactly the extended methods; carrier_b has none', () => {
    expect(methodsOf(adapters['321'].extended)).toEqual(sorted(EXTENDED_METHODS));
    expect(adapters.carrier_b.extended).toBeUndefined();
  });
});

describe('the sandbox core', () => {
  it('has every contract method, and the extended ones where offered', () => {
    const core321 = new SandboxCarrier({ carrier: '321' });
    const coreB = new SandboxCarrier({ carrier: 'carrier_b' });
    for (const core of [core321, coreB]) expect(methodsOf(core)).toEqual(sorted(CARRIER_METHODS));
    expect(methodsOf(core321.extended!)).toEqual(sorted(EXTENDED_METHODS));
    expect(coreB.extended).toBeUndefined();
  });
});

describe("carrier 321's sandbox server", () => {
  const routes = carrier321Routes(new SandboxCarrier({ carrier: '321' }));
  const table: [string, SandboxRoute][] = Object.entries(routes);

  it('has one route per contract method and per extended method', () => {
    expect(sorted(Object.keys(routes))).toEqual(sorted([...CARRIER_METHODS, ...EXTENDED_METHODS]));
  });

  it('writes every path parameter as {name}', () => {
    for (const [, route] of table) {
      for (const segment of route.path.split('/').filter(Boolean)) expect(segment).toMatch(/^(\{\w+\}|[\w.-]+)$/);
    }
  });

  it('reaches every route: no earlier route answers its path', () => {
    const parameter = /^\{\w+\}$/;
    const matches = (route: SandboxRoute, method: string, segments: string[]): boolean => {
      const pattern = route.path.split('/').filter(Boolean);
      return (
        route.method === method &&
        pattern.length === segments.length &&
        pattern.every((part, i) => parameter.test(part) || part === segments[i])
      );
    };
    for (const [name, route] of table) {
      const concrete = route.path
        .split('/')
        .filter(Boolean)
        .map((part) => (parameter.test(part) ? 'x' : part));
      const first = table.find(([, candidate]) => matches(candidate, route.method, concrete));
      expect(first?.[0], `${route.method} ${route.path}`).toBe(name);
    }
  });
});

describe("carrier_b's sandbox server", () => {
  it('has one RPC method per contract method, and none of the extended ones', () => {
    expect(sorted(Object.keys(carrierBMethods))).toEqual(sorted(CARRIER_METHODS));
  });

  it('gives each RPC method its own wire name', () => {
    const names = Object.values(carrierBMethods).map((method) => method.name);
    expect(new Set(names).size).toBe(names.length);
    expect(methodTable().size).toBe(CARRIER_METHODS.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z]*\.[A-Z][A-Za-z]*$/);
  });
});
