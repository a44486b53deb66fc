// The cost of a GraphQL request in carrier calls, known before it runs: each field whose
// schema extensions say it calls a carrier costs that many calls, times the number of items
// of every enclosing list argument marked as multiplying (`lines(mdns:)`), and a call that
// several fields of one object share (the service record `service`, `simDetails` and
// `esimProfile` read) costs one per object. A selection that `@skip`/`@include` leave out
// costs nothing, as execution will not resolve it, and a field selected twice under one
// response key is one field, as execution resolves it once. Arguments and directives are read
// with the variables as execution reads them: coerced by graphql-js's own coercion (defaults
// applied, a single value as a one-item list), once per request. The price is an upper bound
// of the calls execution makes; the pipeline refuses any call beyond it (spendCarrierCall).
// Pure: reused for the per-request maximum (use-query-cost.ts), the per-user budget
// (use-cost-budget.ts) and the direct lane (direct-execution.ts).

import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInterfaceType,
  isObjectType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type ExecutionArgs,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/** Field extension: carrier calls one resolution of the field makes. */
export const CARRIER_CALLS = 'carrierCalls';
/** Field extension: name of the list argument whose length multiplies the cost of the field's selection. */
export const COST_PER_ITEM_OF = 'costPerItemOf';
/**
 * Field extension: a carrier call the field makes that every field of the same object making
 * it shares (line-answers.ts makes an identical call once per request): one call per object,
 * however many of its fields are selected.
 */
export const SHARED_CARRIER_CALL = 'sharedCarrierCall';

export const carrierCalls = (calls: number) => ({ [CARRIER_CALLS]: calls });
export const costPerItemOf = (argument: string) => ({ [COST_PER_ITEM_OF]: argument });
export const sharedCarrierCall = (call: string) => ({ [SHARED_CARRIER_CALL]: call });

type Variables = Readonly<Record<string, unknown>>;

const NO_VARIABLES: Variables = Object.freeze({});

/** One response key's field as selected (once or more), with the type it was selected on. */
interface SelectedField {
  parent: GraphQLNamedType;
  nodes: FieldNode[];
}

/** Filled in by queryCost: whether the price read a variable (else it is the document's, whatever the variables). */
export interface PriceReads {
  variables: boolean;
}

/** Whether a value written in the document names a variable, at any depth (a list item, an input object's field). */
function mentionsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(mentionsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => mentionsVariable(field.value));
  return false;
}

const argumentsMentionVariables = (args: readonly ArgumentNode[] | undefined): boolean =>
  args !== undefined && args.some((arg) => mentionsVariable(arg.value));

/**
 * The variables arguments are read with: the operation's, coerced, when the arguments name one
 * (`named`), else none; null when they do not coerce.
 */
type VariablesFor = (named: boolean) => Variables | null;

/**
 * How many items the field's `argument` holds as execution reads it (getArgumentValues, as
 * graphql-js resolves the field): a literal list, a variable's list, the variable's default,
 * the argument's default, a single value as a one-item list. An argument execution refuses (a
 * null where none is allowed) fails the field, which then resolves nothing: 0.
 */
function itemsOf(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  argument: string,
  variablesFor: VariablesFor,
): number {
  const variables = variablesFor(argumentsMentionVariables(node.arguments));
  if (!variables) return 0;
  let given: unknown;
  try {
    given = getArgumentValues(field, node, variables)[argument];
  } catch {
    return 0;
  }
  if (Array.isArray(given)) return given.length;
  return given === undefined || given === null ? 0 : 1;
}

/**
 * Whether `@skip` and `@include` leave the selection in, read as execution reads them, with the
 * operation's variables coerced. When a condition cannot be read (a null given for a variable
 * with a default), the selection is priced: the cost stays an upper bound.
 */
function directivesInclude(selection: SelectionNode, variablesFor: VariablesFor): boolean {
  const { directives } = selection;
  if (!directives?.length) return true;
  const variables = variablesFor(directives.some((directive) => argumentsMentionVariables(directive.arguments)));
  if (!variables) return true;
  try {
    if (getDirectiveValues(GraphQLSkipDirective, selection, variables)?.if === true) return false;
    if (getDirectiveValues(GraphQLIncludeDirective, selection, variables)?.if === false) return false;
  } catch {
    return true;
  }
  return true;
}

/**
 * Carrier calls the chosen operation of `document` would make at most; 0 when none is chosen,
 * or when the price depends on variables that do not coerce (execution refuses such a request
 * before it resolves any field). `reads` learns whether the price depends on the variables (a
 * list length or a directive that names one).
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
  // The operation's variables as execution reads them: coerced by its definitions with
  // graphql-js's own coercion, once, when the price first reads a variable (a request that
  // names none is priced without). Null when they do not coerce.
  const definitions = operation.variableDefinitions ?? [];
  let coerced: Variables | null | undefined;
  const variablesFor: VariablesFor = (named) => {
    if (!named) return NO_VARIABLES;
    reads.variables = true;
    if (coerced === undefined)
      coerced = getVariableValues(schema, definitions, variables, { maxErrors: 1 }).coerced ?? null;
    return coerced;
  };

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
        if (!directivesInclude(selection, variablesFor)) continue;
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
    let shared: Set<unknown> | undefined;
    for (const { parent, nodes } of collect(sets, type).values()) {
      const node = nodes[0]!;
      const field: GraphQLField<unknown, unknown> | undefined =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
      if (!field) continue; // __typename, introspection: no carrier call
      const calls = Number(field.extensions[CARRIER_CALLS] ?? 0);
      const call = field.extensions[SHARED_CARRIER_CALL];
      if (call !== undefined) (shared ??= new Set()).add(call);
      const per = field.extensions[COST_PER_ITEM_OF];
      // Execution reads a field's arguments from its first node (merged fields have the same).
      const times = typeof per === 'string' ? itemsOf(field, node, per, variablesFor) : 1;
      const selections: SelectionSetNode[] = [];
      for (const { selectionSet } of nodes) if (selectionSet) selections.push(selectionSet);
      total += calls + (selections.length > 0 ? times * cost(selections, getNamedType(field.type)) : 0);
    }
    total += shared?.size ?? 0;
    remember(total);
    return total;
  }

  const total = cost([operation.selectionSet], root);
  // Variables that do not coerce: execution refuses the request before it resolves any field.
  return coerced === null ? 0 : total;
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
