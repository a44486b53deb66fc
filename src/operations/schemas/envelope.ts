// The operation result envelope of the spec (every mutating operation answers with it). Its
// bodies are written by the helpers of src/pipeline/envelopes.ts.

import { z } from 'zod';
import { transactionId } from './fields.js';

export const operationStatus = z
  .enum(['success', 'failure'])
  .meta({ id: 'OperationStatus', description: 'success, or failure (the carrier refused)' });

export const operationResult = z
  .object({
    status: operationStatus,
    mdn: z.string().nullable().optional().describe('Subscriber number (the parent number for child-line operations)'),
    newMdn: z.string().optional().describe('The new number (MDN swap)'),
    sim: z.string().nullable().optional().describe('SIM (ICCID), on operations that name one'),
    customerId: z.string().optional().describe('Carrier customer id (activation)'),
    purchaseId: z.string().optional().describe('Purchase id (plan purchase and cancellation)'),
    transactionId: transactionId.describe(
      'The caller-supplied transaction id, or the generated one: the prefix and 12 uppercase hex characters (in a dry run\'s payload, the caller\'s or "": a dry run generates and reserves none)',
    ),
    message: z.string().describe('Success/SUCCESS, or the carrier message ending with the error code in parentheses'),
    warning: z.string().optional().describe('Only on partial success: what did not succeed'),
    wfcStatus: z.boolean().optional().describe('Present with warning: false when Wi-Fi Calling could not be added'),
  })
  .meta({ id: 'OperationResult', description: 'The result envelope of a mutating operation' });

export type OperationResult = z.infer<typeof operationResult>;
