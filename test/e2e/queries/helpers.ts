// Shared by the query tests: lines seeded straight into a sandbox carrier, and the comparison
// of a REST answer with its GraphQL twin.

import { expect } from 'vitest';
import { graphqlForm } from '../../support/graphql-form.js';
import type { TestGateway } from '../../support/gateway.js';

export { freshSim, seedDisconnectedLine, seedLine } from '../../support/lines.js';

export { SEED_ADDRESS as ADDRESS } from '../../support/lines.js';

/** Drops members a GraphQL selection answers null but REST leaves out. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null && member !== undefined)
      .map(([key, member]) => [key, comparable(member)]),
  );
}

/** The GraphQL answer carries the same data as the REST body, in the schema's vocabulary (test/support/graphql-form.ts). */
export function expectTwin(restBody: unknown, graphqlData: unknown): void {
  expect(comparable(graphqlData)).toEqual(comparable(graphqlForm(restBody)));
}

/** GraphQL selections of every field of each query's result. */
export const SELECTIONS = {
  usage: `status subscriberStatus mdn sim customerId planName effectiveDate balanceDetails { talk text data }
    subscriptions { purchaseId planCode planName balances { uom balance validFrom validTo } } message errors`,
  serviceInfo: `status subscriberStatus mdn sim imei planName effectiveDate billCycleDay serviceCodes { code effectiveDate }
    balanceDetails { talk text data } subscriptions { purchaseId planCode planName balances { uom balance validFrom validTo } }
    e911Address { address1 city state zipCode } hotlineStatus hotlineNumber message`,
  carrierUsage: 'status mdn usageRecords { type timestamp duration destination bytesUsed count } message',
  networkStatus: 'status subscriberStatus mdn sim imei imsi simStatus serviceCodes message',
  coverage: 'zipCode covered status areas { city state zipCode quality } message',
  quickCoverage: 'zipCode covered status message',
  deviceCompatibility: `imei compatible status statusCode technology simType simSize message model manufacturer marketingName osName
    esimCapable volteCapable wifiCallingCapable networkApproved`,
  esimProfile: 'status sim activationCode matchingId profileState profileType esimBrand lastModified message',
  simDetails: 'sim status activationEligible wfcEligible puk1 puk2 createDate expirationDate iccidStatus message',
} as const;

export type QueryName = keyof typeof SELECTIONS;

/** Calls query `name` with its arguments on GraphQL, selecting every field. */
export function graphqlQuery(gateway: TestGateway, name: QueryName, args: Record<string, string>, token?: string) {
  const declared = Object.keys(args).map((key) => `$${key}: String!`).join(', ');
  const passed = Object.keys(args).map((key) => `${key}: $${key}`).join(', ');
  return gateway.graphql<Record<string, Record<string, unknown>>>(`query (${declared}) { ${name}(${passed}) { ${SELECTIONS[name]} } }`, { token, variables: args });
}
