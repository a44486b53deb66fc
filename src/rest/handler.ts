// The REST compatibility layer: the spec's paths on the same operations and pipeline as
// GraphQL, with the spec's status codes and snake_case bodies.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { convertKeys, toSnake } from '../lib/case.js';
import { quote } from '../lib/quote.js';
import { tooLargeHeaders } from '../http/body-limit.js';
import {
  BodyTooLargeError,
  InvalidJsonError,
  JsonTooDeepError,
  JsonTooManyKeysError,
  readJsonBody,
  sendJson,
  type BodyLimits,
} from '../http/json.js';
import { rateLimitHeaders } from '../lib/rate-limit-headers.js';
import { dryRunOperation } from '../pipeline/dry-run.js';
import { executeOperation } from '../pipeline/execute.js';
import { ValidationFailedError } from '../errors/gateway-errors.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { logRefusal, writeRestError, type LogScope } from './error-response.js';
import { camelCaseFor } from './body-keys.js';
import { dryRunFlag } from './dry-run-flag.js';
import { restBody } from './field-order.js';
import { lookup, type RestRoute } from './routes.js';
import type { AccessRecord } from '../http/access-log.js';
import { merged } from '../lib/merged.js';

async function collectInput(
  route: RestRoute,
  params: Record<string, string>,
  url: URL,
  request: IncomingMessage,
  sources: Map<string, 'path' | 'query' | 'body'>,
  limits: BodyLimits,
): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  if (route.method !== 'GET') {
    let body: unknown;
    try {
      body = await readJsonBody(request, limits);
    } catch (error) {
      if (error instanceof InvalidJsonError)
        throw new ValidationFailedError([
          { type: 'json_invalid', loc: ['body', error.position], msg: 'JSON decode error' },
        ]);
      if (error instanceof JsonTooDeepError || error instanceof JsonTooManyKeysError)
        throw new ValidationFailedError([{ type: 'json_invalid', loc: ['body'], msg: error.message }]);
      throw error;
    }
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new ValidationFailedError([
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
        },
      ]);
    }
    // Keys in camelCase only where validation reads them: the work is bounded by the schema, not the body.
    for (const [key, value] of Object.entries(
      camelCaseFor(route.operation.input, body ?? {}) as Record<string, unknown>,
    )) {
      if (route.isAbsent(key, value)) continue;
      input[key] = value;
      sources.set(key, 'body');
    }
  }
  for (const name of route.operation.rest?.query ?? []) {
    const value = url.searchParams.get(toSnake(name));
    if (value !== null) {
      input[name] = value;
      sources.set(name, 'query');
    }
  }
  const repeated = new Set(route.operation.rest?.bodyRepeats ?? []);
  for (const [name, value] of Object.entries(params)) {
    if (repeated.has(name)) {
      // The body must carry the path parameter too (a missing one is reported at the body), and agree.
      if (sources.get(name) !== 'body') continue;
      if (input[name] !== value) {
        throw new ValidationFailedError([
          {
            type: 'value_error',
            loc: ['body', toSnake(name)],
            msg: `${toSnake(name)} must match the ${toSnake(name)} in the path`,
          },
        ]);
      }
    }
    input[name] = value;
    sources.set(name, 'path');
  }
  return input;
}

/** The RateLimit headers of the operation's per-user limit, once the pipeline counted the call. */
const limitHeadersOf = (context: RequestContext) => (context.rateLimit ? rateLimitHeaders(context.rateLimit) : {});

/** Answers the request if it is a REST route; errors of an operation are answered and logged here. */
export async function handleRest(
  routes: readonly RestRoute[],
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  context: () => Promise<RequestContext>,
  log: LogScope,
  limits: BodyLimits,
  record?: AccessRecord,
): Promise<boolean> {
  const found = lookup(routes, request.method ?? 'GET', url.pathname);
  if (found.kind === 'not-found') return false;
  if (found.kind === 'redirect') {
    if (record) record.route = 'redirect';
    response.writeHead(307, { location: found.location + url.search, 'content-length': 0 });
    response.end();
    return true;
  }
  if (found.kind === 'method-not-allowed') {
    // The route's template, never the path: the path may carry an MDN or ICCID, which no log line names.
    if (record) record.route = found.template;
    logRefusal(log, 405, 'METHOD_NOT_ALLOWED', `${quote(request.method ?? '', 16)} ${found.template}`);
    sendJson(response, 405, { detail: 'Method Not Allowed' }, { allow: found.allowed.join(', ') });
    return true;
  }
  const { route, params } = found.match;
  // Set before anything is awaited: a request abandoned mid-way is still recorded by its route.
  if (record) record.route = route.path;
  const scope = merged(log, { operation: route.operation.name });
  const requestContext = await context();
  const sources = new Map<string, 'path' | 'query' | 'body'>();
  try {
    const flag = dryRunFlag(route, url);
    const read = () => collectInput(route, params, url, request, sources, limits);
    const pending = {
      read: 'refusal' in flag ? () => Promise.reject(flag.refusal) : read,
      sources,
    };
    if ('dryRun' in flag && flag.dryRun) {
      const { report } = await dryRunOperation(route.operation, pending, requestContext);
      sendJson(response, 200, convertKeys(report, toSnake), limitHeadersOf(requestContext));
      return true;
    }
    const outcome = await executeOperation(route.operation, pending, requestContext);
    sendJson(response, outcome.status, restBody(route.operation.output, outcome.body), limitHeadersOf(requestContext));
  } catch (error) {
    // A refusal after the call was counted (422, 403, a carrier fault…) still says what is left.
    for (const [name, value] of Object.entries(limitHeadersOf(requestContext))) response.setHeader(name, value);
    if (error instanceof BodyTooLargeError) {
      logRefusal(scope, 413, 'PAYLOAD_TOO_LARGE', error.message);
      sendJson(response, 413, { detail: error.message }, tooLargeHeaders);
      return true;
    }
    writeRestError(response, error, scope);
  }
  return true;
}
