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
// A document graphql-jit cannot compile, or one over the compilation limits (below), is executed
// by graphql-js.

import {
  execute,
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { PreparedDocument } from './prepared-documents.js';

type Variables = Record<string, unknown>;

/**
 * What compiling costs is bounded, as a hostile client could otherwise make it its lever:
 * graphql-jit writes code for the selection with every fragment expanded (a 1.3 K document of
 * ~150 fields became 293 K of JavaScript, 5.5 ms to compile and ~84 KB kept), so only an
 * operation of at most `maxFields` fields, fragments expanded, is compiled; at most
 * `maxCompiled` compiled operations are kept (the least recently executed is dropped, and
 * compiled again if it is used again); at most `maxCompilesPerSecond` are compiled a second on
 * this replica. Anything else is executed by graphql-js, as Yoga's lane always is.
 */
export interface CompilationLimits {
  maxFields: number;
  maxCompiled: number;
  maxCompilesPerSecond: number;
}

export const COMPILATION_LIMITS: CompilationLimits = { maxFields: 200, maxCompiled: 100, maxCompilesPerSecond: 10 };

/** The lane's state of one operation of a prepared document. */
export interface OperationCompilation {
  /** The compiled query; null: executed by graphql-js for good (too large, or not compilable); absent: not compiled now. */
  query?: CompiledQuery | null;
}

/**
 * Fields the operation selects with its fragments expanded (each fragment counted once per
 * spread, as graphql-jit writes it), counted no further than just past `bound`: linear in the
 * document, however large the expansion.
 */
export function expandedFieldCount(document: DocumentNode, operationName: string | undefined, bound: number): number {
  const operation = getOperationAST(document, operationName);
  if (!operation) return Infinity;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // Validation refuses fragment cycles, so a fragment's count is its own, whatever spreads it.
  const fragmentCounts = new Map<string, number>();
  const countOf = (set: SelectionSetNode): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) total += 1 + (selection.selectionSet ? countOf(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) total += countOf(selection.selectionSet);
      else {
        const name = selection.name.value;
        let count = fragmentCounts.get(name);
        if (count === undefined) {
          const fragment = fragments.get(name);
          count = fragment ? countOf(fragment.selectionSet) : 0;
          fragmentCounts.set(name, count);
        }
        total += count;
      }
      if (total > bound) return total;
    }
    return total;
  };
  return countOf(operation.selectionSet);
}

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
  /** Compiled operations kept now. */
  readonly compiledCount: number;
}

export function createCompiledExecution(
  schema: GraphQLSchema,
  limits: CompilationLimits = COMPILATION_LIMITS,
  now: () => number = Date.now,
): CompiledExecution {
  // In the order of their last execution: the first is the least recently executed.
  const kept = new Map<OperationCompilation, true>();
  let second = 0;
  let compiledThisSecond = 0;

  function mayCompileNow(): boolean {
    const current = Math.floor(now() / 1000);
    if (current !== second) {
      second = current;
      compiledThisSecond = 0;
    }
    if (compiledThisSecond >= limits.maxCompilesPerSecond) return false;
    compiledThisSecond += 1;
    return true;
  }

  function compile(document: PreparedDocument, operationName: string | undefined): CompiledQuery | null {
    if (expandedFieldCount(document.document, operationName, limits.maxFields) > limits.maxFields) return null;
    try {
      const outcome = compileQuery(schema, document.document, operationName);
      return isCompiledQuery(outcome) ? outcome : null;
    } catch {
      return null;
    }
  }

  /** The operation's compiled query, compiling it when it may be; null when graphql-js executes it this time. */
  function compiledOf(document: PreparedDocument, operationName: string | undefined): CompiledQuery | null {
    const key = operationName ?? '';
    let state = document.compiled?.get(key);
    if (!state) (document.compiled ??= new Map()).set(key, (state = {}));
    if (state.query === null) return null;
    if (state.query) {
      kept.delete(state);
      kept.set(state, true);
      return state.query;
    }
    if (!mayCompileNow()) return null;
    state.query = compile(document, operationName);
    if (!state.query) return null;
    kept.set(state, true);
    if (kept.size > limits.maxCompiled) {
      const oldest = kept.keys().next().value!;
      kept.delete(oldest);
      delete oldest.query;
    }
    return state.query;
  }

  const withGraphQLJs = (
    document: PreparedDocument,
    operationName: string | undefined,
    context: unknown,
    variables: Variables,
  ) =>
    execute({ schema, document: document.document, contextValue: context, variableValues: variables, operationName });

  return {
    get compiledCount() {
      return kept.size;
    },
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
