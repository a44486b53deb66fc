// The cost of a GraphQL request in carrier calls, known before it runs: each field whose
// schema extensions say it calls a carrier costs that many calls, times the number of items
// of every enclosing list argument marked as multiplying (`lines(mdns:)`). A selection that
// `@skip`/`@include` leave out costs nothing, as execution will not resolve it. Pure: reused
// for the per-request maximum (use-query-cost.ts) and the per-user budget (use-cost-budget.ts).

import {
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type ExecutionArgs,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';

/** Field extension: carrier calls one resolution of the field makes. */
export const CARRIER_CALLS = 'carrierCalls';
/** Field extension: name of the list argument whose length multiplies the cost of the field's selection. */
export const COST_PER_ITEM_OF = 'costPerItemOf';

export const carrierCalls = (calls: number) => ({ [CARRIER_CALLS]: calls });
export const costPerItemOf = (argument: string) => ({ [COST_PER_ITEM_OF]: argument });

type Variables = Readonly<Record<string, unknown>>;

/** How many items the argument holds: a literal list, a variable's list, or one (list input coercion). */
function itemsOf(node: FieldNode, argument: string, variables: Variables): number {
  const value = node.arguments?.find((arg) => arg.name.value === argument)?.value;
  if (!value || value.kind === Kind.NULL) return 0;
  if (value.kind === Kind.LIST) return value.values.length;
  if (value.kind === Kind.VARIABLE) {
    const given = variables[value.name.value];
    if (Array.isArray(given)) return given.length;
    return given === undefined || given === null ? 0 : 1;
  }
  return 1;
}

/**
 * Whether `@skip` and `@include` leave the selection in, read as execution reads them: with the
 * operation's variables coerced (defaults applied). When they cannot be read (a variable missing
 * or of the wrong type, which execution refuses anyway), the selection is priced: the cost stays
 * an upper bound.
 */
function directivesInclude(
  selection: SelectionNode,
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  variables: Variables,
  coerced: { values?: Variables },
): boolean {
  if (!selection.directives?.length) return true;
  if (!coerced.values) {
    const result = getVariableValues(schema, definitions, variables, { maxErrors: 1 });
    coerced.values = result.coerced ?? variables;
  }
  try {
    if (getDirectiveValues(GraphQLSkipDirective, selection, coerced.values)?.if === true) return false;
    if (getDirectiveValues(GraphQLIncludeDirective, selection, coerced.values)?.if === false) return false;
  } catch {
    return true;
  }
  return true;
}

/** Carrier calls the chosen operation of `document` would make at most; 0 when none is chosen. */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Variables = {},
  operationName?: string | null,
): number {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // Cost is linear in the multiplier, so each fragment is priced once (at 1) and scaled: a
  // document of fragments spreading each other twice over costs linear time, not exponential.
  const fragmentCosts = new Map<string, number>();
  // The variables coerced by the operation's definitions, worked out at the first directive met.
  const definitions = operation.variableDefinitions ?? [];
  const coerced: { values?: Variables } = {};

  function fragmentCost(name: string): number {
    const known = fragmentCosts.get(name);
    if (known !== undefined) return known;
    fragmentCosts.set(name, 0); // a cycle (invalid anyway) adds nothing
    const fragment = fragments.get(name);
    const type = fragment && schema.getType(fragment.typeCondition.name.value);
    const cost = fragment && type ? setCost(fragment.selectionSet, type) : 0;
    fragmentCosts.set(name, cost);
    return cost;
  }

  function setCost(set: SelectionSetNode, type: GraphQLNamedType): number {
    let total = 0;
    for (const selection of set.selections) {
      if (!directivesInclude(selection, schema, definitions, variables, coerced)) continue;
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        total += fragmentCost(selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const narrowed = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (narrowed) total += setCost(selection.selectionSet, narrowed);
      } else {
        const field: GraphQLField<unknown, unknown> | undefined =
          isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
        if (!field) continue; // __typename, introspection: no carrier call
        const calls = Number(field.extensions[CARRIER_CALLS] ?? 0);
        const per = field.extensions[COST_PER_ITEM_OF];
        const times = typeof per === 'string' ? itemsOf(selection, per, variables) : 1;
        total +=
          calls + (selection.selectionSet ? times * setCost(selection.selectionSet, getNamedType(field.type)) : 0);
      }
    }
    return total;
  }

  return setCost(operation.selectionSet, root);
}

const costOfExecution = new WeakMap<ExecutionArgs, number>();

/**
 * The cost of one execution, worked out once: the cost maximum (use-query-cost.ts) and the
 * budget (use-cost-budget.ts) both price the same execution arguments.
 */
export function executionCost(args: ExecutionArgs): number {
  let cost = costOfExecution.get(args);
  if (cost === undefined) {
    cost = queryCost(args.schema, args.document, args.variableValues ?? {}, args.operationName);
    costOfExecution.set(args, cost);
  }
  return cost;
}
