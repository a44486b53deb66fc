// Validates an operation's input with its zod schema and reports failures in FastAPI's 422
// shape (`{type, loc, msg}`), with `loc` naming where the field came from on REST
// (`["body","state"]`, `["path","mdn"]`) and the input path on GraphQL.

import type { z } from 'zod';
import { toSnake } from '../lib/case.js';
import { InputRefusal, ValidationFailedError, type ValidationIssue } from '../errors/gateway-errors.js';

/** Where each top-level (camelCase) input field came from, on REST. */
export type InputSources = ReadonlyMap<string, 'path' | 'query' | 'body'>;

export function validateInput(schema: z.ZodType, input: unknown, sources?: InputSources): unknown {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  throw validationFailure(result.error, sources);
}

/** The gateway's 422 / BAD_USER_INPUT error for a zod failure. */
export function validationFailure(error: z.ZodError, sources?: InputSources): ValidationFailedError {
  return new ValidationFailedError(error.issues.map((issue) => toValidationIssue(issue, sources)));
}

/** Where an input member is, as each surface names it: REST `["body","zip_code"]`, GraphQL `["input","zipCode"]`. */
function locOf(path: readonly (string | number)[], sources?: InputSources): (string | number)[] {
  const [first] = path;
  return sources
    ? [sources.get(String(first)) ?? 'body', ...path.map((part) => (typeof part === 'string' ? toSnake(part) : part))]
    : ['input', ...path];
}

/** An InputRefusal as the 422 of its member on the request's surface; any other error as it is. */
export function locatedRefusal(error: unknown, sources?: InputSources): unknown {
  if (!(error instanceof InputRefusal)) return error;
  return new ValidationFailedError([{ type: 'value_error', loc: locOf([error.field], sources), msg: error.message }]);
}

function toValidationIssue(issue: z.core.$ZodIssue, sources?: InputSources): ValidationIssue {
  const path = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
  const loc = locOf(path, sources);
  const absent = (issue as { input?: unknown }).input === undefined;
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && absent)
    return { type: 'missing', loc, msg: 'Field required' };
  if (issue.code === 'invalid_type')
    return { type: `${issue.expected}_type`, loc, msg: `Input should be a valid ${issue.expected}` };
  if (issue.code === 'unrecognized_keys') return { type: 'extra_forbidden', loc, msg: issue.message };
  return { type: 'value_error', loc, msg: issue.message };
}
