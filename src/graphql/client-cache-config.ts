// Normalized-cache configuration for GraphQL clients of this gateway (Apollo InMemoryCache,
// urql Graphcache): self-contained (no server import, no client library import) so that a web
// app can copy or import it as is. test/clients/ proves it against the live schema.
//
// Identity: every entity has `id: ID!` (Line: its MDN; User, Me, tokens: their id; Plan: its
// planId; Setting: its key; TransactionRecord: the transaction id; CarrierStatus: the carrier),
// which both caches key on by default. Every other object type is a value: a carrier's answer
// about a line (usage, network status, service record…) is stored inside the `Line` it belongs
// to (or under the root field that read it), never as an entity of its own.

/** Object types without an identity: embedded in their parent (test/clients/cache-config.test.ts keeps this list true). */
export const EMBEDDED_TYPES = [
  // A mutation's answer around a TransactionRecord (which has its id).
  'AbandonedTransaction',
  'AccountLine',
  'AccountResult',
  'ActivePlanResult',
  'AddressValidationResult',
  'AvailablePlan',
  'AvailablePlansResult',
  'Balance',
  'BalanceDetails',
  'BulkActivationEntry',
  'BulkActivationResult',
  'CarrierUsageResult',
  'CoverageArea',
  'CoverageResult',
  'CustomerImpactingEvent',
  'CustomerImpactingEventsResult',
  'DeviceCompatibility',
  'DeviceUnlockStatusResult',
  'DryRunCheck',
  'DryRunReport',
  'EsimProfile',
  'HistoryEdge',
  'HistoryEntry',
  'ImeiChangeResult',
  'ImeiDetailsResult',
  'LineHistory',
  'LineLabelResult',
  'LineProduct',
  'NetworkStatus',
  'NumberGroup',
  'NumberGroupsResult',
  'OperationResult',
  'PageInfo',
  'PhoneListResult',
  'PlanSubscription',
  'PoolLineUsage',
  'PoolUsageResult',
  'ProductsResult',
  'QuickCoverageResult',
  'SendSmsResult',
  'ServiceCode',
  'ServiceE911Address',
  'ServiceRecord',
  'SimDetails',
  'UsageEvent',
  'UsageRecord',
  'ValidatedAddress',
  // A webhook delivery's attempts, and the answer to registering an endpoint (its secret, once).
  'WebhookAttempt',
  'WebhookEndpointCreated',
] as const;

/** A reference to a cached entity, as both caches accept it (a type, not an interface: Apollo wants an index signature). */
type EntityKey = { __typename: string; id: string };

/** The part of Apollo's field-read options used here (`FieldFunctionOptions`). */
interface ApolloReadOptions {
  args: Record<string, unknown> | null;
  toReference: (entity: EntityKey) => unknown;
}

/**
 * Apollo `InMemoryCache({ typePolicies })`: `line(mdn)` reads the `Line` that `lines(mdns)` (or an
 * earlier `line`) already cached, and embedded values merge field by field instead of replacing
 * each other (a dashboard asking for `usage { status }` then `usage { balanceDetails }` keeps both).
 */
export const apolloTypePolicies = {
  Query: {
    fields: {
      line: {
        read: (existing: unknown, { args, toReference }: ApolloReadOptions): unknown =>
          existing ?? (typeof args?.mdn === 'string' ? toReference({ __typename: 'Line', id: args.mdn }) : undefined),
      },
    },
  },
  ...Object.fromEntries(EMBEDDED_TYPES.map((name) => [name, { merge: true }])),
};

/** urql Graphcache `cacheExchange({ keys, resolvers })`: embedded values have no key (no "Invalid key" warning). */
export const graphcacheKeys: Record<string, () => null> = Object.fromEntries(
  EMBEDDED_TYPES.map((name) => [name, () => null]),
);

/** urql Graphcache resolvers: `line(mdn)` is the cached `Line` of that MDN. */
export const graphcacheResolvers = {
  Query: {
    line: (_parent: unknown, args: Record<string, unknown>): EntityKey | undefined =>
      typeof args.mdn === 'string' ? { __typename: 'Line', id: args.mdn } : undefined,
  },
};
