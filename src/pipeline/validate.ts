// Validates an operation's input with its zod schema and reports failures in FastAPI's 422
// shape (`{type, loc, msg}`), with `loc` naming where the field came from on REST
// (`["body","state"]`, `["path","mdn"]`) and the argument path on GraphQL (`["input","state"]`
// under a mutation's `input`, `["mdns",1]` for a field's own argument).

import type { z } from 'zod';
import { toSnake } from '../lib/case.js';
import { def } from '../lib/zod-introspect.js';
import { InputRefusal, ValidationFailedError, type ValidationIssue } from '../errors/gateway-errors.js';

/** Where each top-level (camelCase) input field came from, on REST. */
export type InputSources = ReadonlyMap<string, 'path' | 'query' | 'body'>;

/**
 * GraphQL: the input is a field's arguments. `argument` names the one object argument that
 * holds it (a mutation's `input`); absent, each member is an argument of its own (a query's).
 */
export interface GraphQLArguments {
  argument?: string;
}

/** A query's input: each member is an argument of the field (`usage(mdn:)` → `["mdn"]`). */
export const FIELD_ARGUMENTS: GraphQLArguments = {};
/** A mutation's input: the members of its `input` argument (`["input","mdn"]`). */
export const INPUT_ARGUMENT: GraphQLArguments = { argument: 'input' };

/**
 * Where an input came from, which decides how a 422 names its members. REST (`sources`): the
 * spec's snake_case, messages as written. GraphQL (`graphql`): the argument path, and GraphQL's
 * camelCase for the input's members in messages too. Neither (the admin CLI, a bulk job's
 * items): `["input", …camelCase path]`, messages as written.
 */
export interface InputPlace {
  sources?: InputSources;
  graphql?: GraphQLArguments;
}

export function validateInput(schema: z.ZodType, input: unknown, place?: InputPlace): unknown {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const failure = validationFailure(result.error, place, schema);
  // Each zod issue holds the value it refused (`reportInput`, read above for "missing"); the
  // failure keeps none. Let go of them too: measured in-process, a 1 MB list of 249,000 objects
  // refused by one issue cost 40–65 ms of CPU a request while its issue held it, 15–18 ms (what
  // parsing it costs) once let go, the difference all in garbage collection.
  for (const issue of result.error.issues) (issue as { input?: unknown }).input = undefined;
  throw failure;
}

/** The gateway's 422 / BAD_USER_INPUT error for a zod failure (of `schema`, when known). */
export function validationFailure(error: z.ZodError, place?: InputPlace, schema?: z.ZodType): ValidationFailedError {
  const names = place?.graphql ? graphqlNames(schema) : undefined;
  const issues = error.issues.map((issue) => toValidationIssue(issue, place));
  return refusalOf(
    names ? issues.map((issue, index) => reworded(issue, error.issues[index]!.path, names)) : issues,
    place,
  );
}

/** An InputRefusal as the 422 of its member on the request's surface; any other error as it is. */
export function locatedRefusal(error: unknown, place?: InputPlace): unknown {
  if (!(error instanceof InputRefusal)) return error;
  const issue: ValidationIssue = { type: 'value_error', loc: locOf([error.field], place), msg: error.message };
  return refusalOf([place?.graphql ? reworded(issue, [error.field], new Map()) : issue], place);
}

/** The refusal, its message naming each member from where its `loc` starts naming members. */
function refusalOf(issues: ValidationIssue[], place?: InputPlace): ValidationFailedError {
  const ownArguments = place?.graphql && place.graphql.argument === undefined;
  return new ValidationFailedError(issues, ownArguments ? 0 : 1);
}

/** Where an input member is, as each surface names it: REST `["body","zip_code"]`, GraphQL `["zipCode"]`. */
function locOf(path: readonly (string | number)[], place?: InputPlace): (string | number)[] {
  const [first] = path;
  if (place?.sources)
    return [
      place.sources.get(String(first)) ?? 'body',
      ...path.map((part) => (typeof part === 'string' ? toSnake(part) : part)),
    ];
  if (place?.graphql) return place.graphql.argument === undefined ? [...path] : [place.graphql.argument, ...path];
  return ['input', ...path];
}

function toValidationIssue(issue: z.core.$ZodIssue, place?: InputPlace): ValidationIssue {
  const path = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
  const loc = locOf(path, place);
  const absent = (issue as { input?: unknown }).input === undefined;
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && absent)
    return { type: 'missing', loc, msg: 'Field required' };
  if (issue.code === 'invalid_type')
    return { type: `${issue.expected}_type`, loc, msg: `Input should be a valid ${issue.expected}` };
  if (issue.code === 'unrecognized_keys') return { type: 'extra_forbidden', loc, msg: issue.message };
  return { type: 'value_error', loc, msg: issue.message };
}

// --- GraphQL's wording: the operations' messages name members as REST does (`zip_code must be
// 5 digits`); on GraphQL each member is named as GraphQL names it (`zipCode must be 5 digits`).

/** snake_case → camelCase of every member name of an input schema that differs between the two. */
type Names = ReadonlyMap<string, string>;

const namesBySchema = new WeakMap<z.ZodType, Names>();

/** The member names of `schema`, at any depth (the items of a list, the options of a union…). */
function graphqlNames(schema: z.ZodType | undefined): Names {
  if (!schema) return new Map();
  let names = namesBySchema.get(schema);
  if (!names) {
    const found = new Map<string, string>();
    collectNames(schema, found, new Set());
    names = found;
    namesBySchema.set(schema, names);
  }
  return names;
}

function collectNames(schema: z.ZodType, found: Map<string, string>, seen: Set<z.ZodType>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const d = def(schema);
  const inner = (value: unknown) => {
    if (value && typeof value === 'object' && '_zod' in value) collectNames(value as z.ZodType, found, seen);
  };
  if (d.type === 'object') {
    for (const [key, member] of Object.entries(d.shape as Record<string, z.ZodType>)) {
      if (toSnake(key) !== key) found.set(toSnake(key), key);
      inner(member);
    }
  }
  for (const key of ['innerType', 'in', 'out', 'element', 'left', 'right', 'valueType']) inner(d[key]);
  for (const option of (d.options as unknown[] | undefined) ?? []) inner(option);
}

/** The issue with the input's members named in camelCase in its message (its own path's names too). */
function reworded(issue: ValidationIssue, path: readonly PropertyKey[], names: Names): ValidationIssue {
  const own = path.filter((part): part is string => typeof part === 'string' && toSnake(part) !== part);
  const rename = (word: string) => names.get(word) ?? own.find((part) => toSnake(part) === word) ?? word;
  // Word by word (a linear scan): only whole words that name a member change.
  return { ...issue, msg: issue.msg.replace(/\w+/g, rename) };
}
