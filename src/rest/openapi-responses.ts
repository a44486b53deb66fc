// The responses of each REST operation in the OpenAPI document, derived from what the pipeline
// can refuse it with (src/pipeline/execute.ts, src/errors/gateway-errors.ts; README "Errors").

import type { RegisteredOperation } from '../pipeline/operation.js';
import { operationResult } from '../operations/schemas/envelope.js';
import { transactionIdExample } from './openapi-examples.js';
import type { JsonSchema } from './openapi-schema.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema, example?: unknown) => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

/** The error bodies, named as FastAPI names them where it had them. */
export const errorSchemas: Record<string, JsonSchema> = {
  Detail: {
    type: 'object',
    description: "A refusal in FastAPI's shape",
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  },
  Failure: {
    type: 'object',
    description: "A refusal in the operation envelope's shape",
    properties: {
      status: { const: 'failure' },
      message: { type: 'string' },
      code: { type: 'string', description: 'HTTP_<status>', examples: ['HTTP_409'] },
    },
    required: ['status', 'message', 'code'],
  },
  ValidationError: {
    type: 'object',
    properties: {
      type: { type: 'string', examples: ['value_error', 'missing'] },
      loc: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        examples: [['body', 'state']],
      },
      msg: { type: 'string', examples: ['state must be a 2-letter US state code'] },
    },
    required: ['type', 'loc', 'msg'],
  },
  HTTPValidationError: {
    type: 'object',
    description: "Invalid input: FastAPI's 422 shape, one entry per problem",
    properties: { detail: { type: 'array', items: ref('ValidationError') } },
    required: ['detail'],
  },
  InternalError: {
    type: 'object',
    properties: {
      detail: { const: 'Internal server error' },
      request_id: { type: 'string', description: 'Also in X-Request-Id and the log' },
    },
    required: ['detail', 'request_id'],
  },
};

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };
const failure = (message: string, status: number) => ({ status: 'failure', message, code: `HTTP_${status}` });

/** Every response `operation` can give, `success` being its 200 body schema. */
export function responsesOf(operation: RegisteredOperation, success: JsonSchema): Record<string, unknown> {
  const carrierRouted = operation.routing !== 'none';
  const envelope = operation.output === operationResult;
  const prefix = operation.transactionPrefix ?? '';
  const responses: Record<string, unknown> = {
    200: {
      description: 'Success',
      content: json(
        success,
        envelope
          ? { status: 'success', mdn: '3215550001', transaction_id: transactionIdExample(prefix), message: 'Success' }
          : undefined,
      ),
    },
  };
  if (carrierRouted) {
    responses[400] = {
      description:
        "The carrier refused, or did not answer: the envelope with status failure, the message ending with the code in parentheses (the carrier's, or CARRIER_TIMEOUT / CARRIER_UNAVAILABLE when it timed out or could not be reached; then look the transaction up before retrying a write)",
      content: json(
        success,
        envelope
          ? {
              status: 'failure',
              mdn: '3215550001',
              transaction_id: transactionIdExample(prefix),
              message: 'MSISDN is not suspended (GENS-0033)',
            }
          : undefined,
      ),
    };
  }
  responses[401] = {
    description: 'No token, or an invalid, expired or revoked one, or a deactivated user',
    headers: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } },
    content: json(ref('Detail'), { detail: 'Not authenticated' }),
  };
  const forbidden = [
    ...(operation.superuserOnly
      ? [{ schema: ref('Detail'), example: { detail: "The user doesn't have enough privileges" } }]
      : []),
    ...(operation.planField
      ? [{ schema: ref('Failure'), example: failure('Plan BASIC is not authorized for this user', 403) }]
      : []),
  ];
  if (forbidden.length > 0) {
    responses[403] = {
      description: [
        operation.superuserOnly && 'Superuser only',
        operation.planField && 'the plan is not authorized for this user',
      ]
        .filter(Boolean)
        .join('; '),
      content: json(
        forbidden.length === 1 ? forbidden[0]!.schema : { oneOf: forbidden.map((shape) => shape.schema) },
        forbidden[0]!.example,
      ),
    };
  }
  if (operation.kind === 'mutation' && operation.transactionPrefix !== undefined) {
    responses[409] = {
      description: 'The transaction id was used before',
      content: json(ref('Failure'), failure(`Transaction ID ${transactionIdExample(prefix)} already exists`, 409)),
    };
  }
  if (operation.rest && operation.rest.method !== 'GET')
    responses[413] = { description: 'The body is larger than the gateway accepts', content: json(ref('Detail')) };
  responses[422] = {
    description: 'Invalid input; nothing was changed',
    content: json(ref('HTTPValidationError'), {
      detail: [{ type: 'value_error', loc: ['body', 'state'], msg: 'state must be a 2-letter US state code' }],
    }),
  };
  if (operation.rateLimit) {
    const { max, window } = operation.rateLimit;
    responses[429] = {
      description: `Rate limit exceeded (${max} per ${window}, per user)`,
      headers: retryAfter,
      content: json(ref('Failure'), failure(`Rate limit exceeded: ${max} per 1 ${window}`, 429)),
    };
  }
  responses[500] = {
    description: 'Unexpected error (logged with the request id)',
    content: json(ref('InternalError')),
  };
  if (operation.extended)
    responses[501] = {
      description: "Not supported by the line's carrier (carrier 321 only)",
      content: json(ref('Failure'), failure(`${operation.name} is not supported by carrier carrier_b`, 501)),
    };
  if (operation.usesCarriers) {
    responses[503] = {
      description:
        'Maintenance mode (with Retry-After), a carrier disabled by an administrator, or missing carrier credentials',
      headers: retryAfter,
      content: json(ref('Failure'), failure('Service is in maintenance mode: carrier operations are disabled', 503)),
    };
  }
  return responses;
}
