// The REST compatibility routes, derived from the operation table: the spec's exact methods
// and paths (trailing slashes included), matched literal-first.

import type { HttpMethod, RegisteredOperation } from '../pipeline/operation.js';
import { toCamel } from '../lib/case.js';
import { absentValues, type AbsentValues } from './absent-values.js';

export interface RestRoute {
  method: HttpMethod;
  path: string;
  segments: string[];
  /** Path parameter names in camelCase by segment index. */
  parameters: Map<number, string>;
  operation: RegisteredOperation;
  /** Body values that mean "not given" (see absent-values.ts). */
  isAbsent: AbsentValues;
}

export interface RouteMatch {
  route: RestRoute;
  params: Record<string, string>;
}

export function compileRoutes(operations: readonly RegisteredOperation[]): RestRoute[] {
  const routes = operations
    .filter((operation) => operation.rest)
    .map((operation): RestRoute => {
      const { method, path } = operation.rest!;
      const segments = path.split('/').slice(1);
      const parameters = new Map<number, string>();
      segments.forEach((segment, index) => {
        const name = /^\{(.+)\}$/.exec(segment)?.[1];
        if (name) parameters.set(index, toCamel(name));
      });
      return { method, path, segments, parameters, operation, isAbsent: absentValues(operation) };
    });
  // More literal segments first, so /settings/carriers/status wins over /settings/{key}.
  return routes.sort((a, b) => b.segments.length - b.parameters.size - (a.segments.length - a.parameters.size));
}

/** The decoded segment, or null when its percent-encoding is malformed (`%ZZ`): no route matches it. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function matchPath(route: RestRoute, segments: string[]): Record<string, string> | null {
  if (route.segments.length !== segments.length) return null;
  // The literal segments first: most routes are ruled out before anything is decoded or made.
  for (let index = 0; index < segments.length; index++)
    if (!route.parameters.has(index) && route.segments[index] !== segments[index]) return null;
  const params: Record<string, string> = {};
  for (const [index, name] of route.parameters) {
    const value = segments[index] === '' ? null : decodeSegment(segments[index]!);
    if (value === null) return null;
    params[name] = value;
  }
  return params;
}

export type Lookup =
  | { kind: 'match'; match: RouteMatch }
  | { kind: 'redirect'; location: string }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[]; template: string }
  | { kind: 'not-found' };

/** Finds the route; like the original (FastAPI) service, a path missing or adding its trailing slash redirects. */
export function lookup(routes: readonly RestRoute[], method: string, pathname: string): Lookup {
  const segments = pathname.split('/').slice(1);
  // The first route of the request's method that matches, in the routes' order (literal-first);
  // the other methods are looked at only to answer 405.
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchPath(route, segments);
    if (params) return { kind: 'match', match: { route, params } };
  }
  const allowed = new Set<HttpMethod>();
  // The template of the first route serving the path: what a log line may name instead of the path.
  let template: string | undefined;
  for (const route of routes) {
    if (!matchPath(route, segments)) continue;
    allowed.add(route.method);
    template ??= route.path;
  }
  if (template !== undefined) return { kind: 'method-not-allowed', allowed: [...allowed], template };
  const toggled = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`;
  const toggledSegments = toggled.split('/').slice(1);
  if (toggled !== '' && routes.some((route) => route.method === method && matchPath(route, toggledSegments)))
    return { kind: 'redirect', location: toggled };
  return { kind: 'not-found' };
}
