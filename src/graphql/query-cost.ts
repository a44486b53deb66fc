// The cost of a GraphQL request in carrier calls, known before it runs: each field whose
// schema extensions say it calls a carrier costs that many calls, times the number of items
// of every enclosing list argument marked as multiplying (`lines(mdns:)`). A selection that
// `@skip`/`@include` leave out costs nothing, as execution will not resolve it, and a field
// selected twice under one response key is one field, as execution resolves it once. Pure: reused
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

/** One response key's field as selected (once or more), with the type it was selected on. */
interface SelectedField {
  parent: GraphQLNamedType;
  nodes: FieldNode[];
}

/** Filled in by queryCost: whether the price read a variable (else it is the document's, whatever the variables). */
export interface PriceReads {
  variables: boolean;
}

/** How many items the argument holds: a literal list, a variable's list, or one (list input coercion). */
function itemsOf(node: FieldNode, argument: string, variables: Variables, reads: PriceReads): number {
  const value = node.arguments?.find((arg) => arg.name.value === argument)?.value;
  if (!value || value.kind === Kind.NULL) return 0;
  if (value.kind === Kind.LIST) return value.values.length;
  if (value.kind === Kind.VARIABLE) {
    reads.variables = true;
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
  reads: PriceReads,
): boolean {
  if (!selection.directives?.length) return true;
  // Literal conditions too: the variables' coercion is asked for whatever the directives hold.
  reads.variables = true;
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

/**
 * Carrier calls the chosen operation of `document` would make at most; 0 when none is chosen.
 * `reads` learns whether the price depends on the variables (a list length, a directive).
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Variables = {},
  operationName?: string | null,
  reads: PriceReads = { variables: false },
): number {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // The variables coerced by the operation's definitions, worked out at the first directive met.
  const definitions = operation.variableDefinitions ?? [];
  const coerced: { values?: Variables } = {};

  /**
   * The fields of `sets` by response key, as execution collects them: fragments flattened (each
   * once), `@skip`/`@include` applied, and a field selected twice under one key (by two
   * fragments, say) one field whose selections are merged, resolved once.
   */
  function collect(sets: readonly SelectionSetNode[], type: GraphQLNamedType): Map<string, SelectedField> {
    const fields = new Map<string, SelectedField>();
    let visited: Set<string> | undefined;
    const visit = (set: SelectionSetNode, parent: GraphQLNamedType) => {
      for (const selection of set.selections) {
        if (!directivesInclude(selection, schema, definitions, variables, coerced, reads)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          const known = fields.get(key);
          if (known) known.nodes.push(selection);
          else fields.set(key, { parent, nodes: [selection] });
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const narrowed = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          if (narrowed) visit(selection.selectionSet, narrowed);
        } else if (!visited?.has(selection.name.value)) {
          (visited ??= new Set()).add(selection.name.value);
          const fragment = fragments.get(selection.name.value);
          const narrowed = fragment && schema.getType(fragment.typeCondition.name.value);
          if (fragment && narrowed) visit(fragment.selectionSet, narrowed);
        }
      }
    };
    for (const set of sets) visit(set, type);
    return fields;
  }

  // Cost is linear in the multiplier, so the selections under one merged field are priced once
  // (at 1) and scaled: a document of fragments spreading each other over and over is priced in
  // time linear in its distinct selections, not in the (exponential) size of its answer. A
  // selection set always sits under the same field, so it (or a list of them) is priced by
  // itself, whatever the type.
  const pricedOne = new Map<SelectionSetNode, number>();
  let pricedMany: Map<string, number> | undefined;
  let setIds: Map<SelectionSetNode, number> | undefined;
  const idOf = (set: SelectionSetNode) => {
    let id = (setIds ??= new Map()).get(set);
    if (id === undefined) setIds.set(set, (id = setIds.size));
    return id;
  };

  function cost(sets: readonly SelectionSetNode[], type: GraphQLNamedType): number {
    const one = sets.length === 1 ? sets[0]! : undefined;
    const key = one ? undefined : sets.map(idOf).join(',');
    const known = one ? pricedOne.get(one) : pricedMany?.get(key!);
    if (known !== undefined) return known;
    const remember = (price: number) => (one ? pricedOne.set(one, price) : (pricedMany ??= new Map()).set(key!, price));
    remember(0); // a cycle (invalid anyway) adds nothing
    let total = 0;
    for (const { parent, nodes } of collect(sets, type).values()) {
      const node = nodes[0]!;
      const field: GraphQLField<unknown, unknown> | undefined =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
      if (!field) continue; // __typename, introspection: no carrier call
      const calls = Number(field.extensions[CARRIER_CALLS] ?? 0);
      const per = field.extensions[COST_PER_ITEM_OF];
      const times = typeof per === 'string' ? itemsOf(node, per, variables, reads) : 1;
      const selections: SelectionSetNode[] = [];
      for (const { selectionSet } of nodes) if (selectionSet) selections.push(selectionSet);
      total += calls + (selections.length > 0 ? times * cost(selections, getNamedType(field.type)) : 0);
    }
    remember(total);
    return total;
  }

  return cost([operation.selectionSet], root);
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
