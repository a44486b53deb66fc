// GraphQL selections of every field of each query's result, and the GraphQL call of a query
// with its arguments: the twin of a REST GET in the query tests.

import type { TestGateway } from '../../support/gateway.js';

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
  const declared = Object.keys(args)
    .map((key) => `$${key}: String!`)
    .join(', ');
  const passed = Object.keys(args)
    .map((key) => `${key}: $${key}`)
    .join(', ');
  return gateway.graphql<Record<string, Record<string, unknown>>>(
    `query (${declared}) { ${name}(${passed}) { ${SELECTIONS[name]} } }`,
    { token, variables: args },
  );
}
