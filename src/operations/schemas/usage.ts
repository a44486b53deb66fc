// The subscriber usage record (Usage & Balance), shared with the full service record.

import { z } from 'zod';

export const balanceDetails = z
  .object({
    talk: z.number().describe('Remaining voice minutes'),
    text: z.number().describe('Remaining messages'),
    data: z.number().describe('Remaining data in bytes'),
  })
  .meta({ id: 'BalanceDetails', description: 'Remaining balances of the line' });

export const balance = z
  .object({
    uom: z.string().describe('Unit of measure (EVENT, SECOND…)'),
    balance: z.number().describe('Remaining amount'),
    validFrom: z.string().describe('Start of the balance, YYYY-MM-DD HH:MM:SS (UTC)'),
    validTo: z.string().describe('End of the balance, YYYY-MM-DD HH:MM:SS (UTC)'),
  })
  .meta({ id: 'Balance', description: 'One balance of a subscription' });

export const subscription = z
  .object({
    purchaseId: z.string().describe('Purchase id'),
    planCode: z.string().describe('Plan code (SOC)'),
    planName: z.string().describe('Plan name'),
    balances: z.array(balance).describe('Balances of this subscription'),
  })
  .meta({ id: 'Subscription', description: 'A plan or add-on subscription of the line' });

export const usageRecord = z
  .object({
    mdn: z.string().optional().describe('Subscriber number'),
    sim: z.string().optional().describe('SIM (ICCID)'),
    status: z.string().describe('Subscriber status (e.g. ACTIVE), or failure'),
    customerId: z.string().optional().describe('Carrier customer id'),
    planName: z.string().optional().describe('Current plan'),
    effectiveDate: z.string().optional().describe('Plan effective date, YYYY-MM-DD HH:MM:SS'),
    balanceDetails: balanceDetails.optional().describe('Remaining talk, text and data'),
    subscriptions: z.array(subscription).optional().describe('Subscriptions with their balances'),
    message: z.string().optional().describe('On failure: the carrier message ending with the error code'),
    errors: z.array(z.string()).optional().describe('On failure: the message strings'),
  })
  .meta({ id: 'UsageRecord', description: 'Usage and balance of a line' });
