// The direct lane's executor: each prepared document's operation compiled once by graphql-jit
// into a function that resolves exactly its selection, instead of graphql-js walking the
// document on every request (collecting fields, coercing each field's arguments, building
// resolve infos and result maps): ~35–50 µs of a GraphQL `usage` request on the bench machine,
// where graphql-js in a micro-benchmark costs a tenth of that (docs/performance.md, "graphql-jit
// on the direct lane").
//
// Yoga's lane still executes with graphql-js, and the lane must answer exactly as it would
// (test/graphql/direct-lane.test.ts compares them byte for byte). Where graphql-jit's answer
// differs, it is made graphql-js's here:
// - variables that do not coerce: graphql-jit words its own messages; its query then returns
//   before any resolver runs, so graphql-js executes the request instead and words the refusal;
// - an answer with errors lists `errors` before `data`, as graphql-js does;
// - an error keeps its `locations` when error masking replaces it (errors.ts: graphql-jit's
//   errors carry locations but not the AST nodes graphql-js's carry).
// A document graphql-jit cannot compile is executed by graphql-js.

import { execute, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { PreparedDocument } from './prepared-documents.js';

type Variables = Record<string, unknown>;

/** graphql-js's key order: `errors` first when there are any (its buildResponse). */
function inGraphQLJsOrder(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const { errors, data, ...rest } = result;
  return Object.assign({ errors, data }, rest);
}

export interface CompiledExecution {
  /** Executes the document's operation for the lane: compiled when it can be, else with graphql-js. */
  execute(
    document: PreparedDocument,
    operationName: string | undefined,
    context: unknown,
    variables: Variables,
  ): Promise<ExecutionResult> | ExecutionResult;
}

export function createCompiledExecution(schema: GraphQLSchema): CompiledExecution {
  /** The operation compiled, null when graphql-jit cannot compile it (kept: it is not tried again). */
  function compiledOf(document: PreparedDocument, operationName: string | undefined): CompiledQuery | null {
    const key = operationName ?? '';
    const known = document.compiled?.get(key);
    if (known !== undefined) return known;
    let compiled: CompiledQuery | null;
    try {
      const outcome = compileQuery(schema, document.document, operationName);
      compiled = isCompiledQuery(outcome) ? outcome : null;
    } catch {
      compiled = null;
    }
    (document.compiled ??= new Map()).set(key, compiled);
    return compiled;
  }

  const withGraphQLJs = (
    document: PreparedDocument,
    operationName: string | undefined,
    context: unknown,
    variables: Variables,
  ) =>
    execute({ schema, document: document.document, contextValue: context, variableValues: variables, operationName });

  return {
    execute(document, operationName, context, variables) {
      const compiled = compiledOf(document, operationName);
      if (!compiled) return withGraphQLJs(document, operationName, context, variables);
      const settle = (result: ExecutionResult) =>
        // No `data` at all: the variables did not coerce, and nothing was resolved.
        result.data === undefined
          ? withGraphQLJs(document, operationName, context, variables)
          : inGraphQLJsOrder(result);
      const result = compiled.query(undefined, context, variables);
      return result instanceof Promise ? result.then(settle) : settle(result);
    },
  };
}
