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
    recovered: z
      .boolean()
      .optional()
      .describe(
        'Only in a job’s results (bulkActivation): true when this SIM’s outcome was lost (its carrier call timed out, or a crash cut it) and learned afterwards by re-sending it under the same transaction id; the entry then shows that outcome. Never in activateSims’ answer, whose REST body keeps the spec’s fields',
      ),
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

/**
 * The synchronous batch's answer (activateSims, POST /sim/activate/bulk/, and the batch id's
 * stored answer) from its entries in request order: the spec's fields only, so an entry learned
 * by recovery says what it is without `recovered`, and `processed` counts the activated SIMs.
 */
export function batchAnswer(entries: readonly BulkActivationEntry[], total: number): BulkActivationResult {
  const results = entries.map(({ recovered: _recovered, ...entry }) => entry);
  return { results, total, processed: results.filter((entry) => entry.status === 'success').length };
}
