// The answer of bulk activation: one entry per SIM, in request order, plus the counts.

import { z } from 'zod';
import { operationStatus } from '../schemas/envelope.js';

export const bulkActivationEntry = z
  .object({
    sim: z.string().describe('The SIM (ICCID) of this entry'),
    status: operationStatus,
    transactionId: z
      .string()
      .describe('The SIM’s transaction id: the one its item gave, else BULK_<sim>_<epoch milliseconds>'),
    mdn: z.string().optional().describe('The new line’s number (on success)'),
    message: z
      .string()
      .describe('Success, or why this SIM was not activated (a carrier message ends with its code in parentheses)'),
    warning: z.string().optional().describe('Only on partial success: Wi-Fi Calling could not be added'),
    wfcStatus: z.boolean().optional().describe('Present with warning: false when Wi-Fi Calling could not be added'),
    error: z.array(z.string()).optional().describe('On failure: the error messages'),
  })
  .meta({ id: 'BulkActivationEntry', description: 'The outcome of one SIM of a bulk activation' });

export const bulkActivationResult = z
  .object({
    results: z.array(bulkActivationEntry).describe('One entry per requested SIM, in request order'),
    total: z.number().int().describe('How many SIMs the request carried'),
    processed: z
      .number()
      .int()
      .describe('How many SIMs were activated (success, including success with a WFC warning)'),
  })
  .meta({
    id: 'BulkActivationResult',
    description: 'The outcome of a bulk activation (HTTP 200 even with mixed results)',
  });

export type BulkActivationEntry = z.infer<typeof bulkActivationEntry>;
export type BulkActivationResult = z.infer<typeof bulkActivationResult>;
