// GET /sim/products/{mdn}: the feature SOCs active on a line (VoLTE, voicemail, WFC…).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { mdn } from '../schemas/fields.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage } from './common.js';

const lineProduct = z
  .object({
    code: z.string().describe('Feature service order code (SOC), e.g. VOLTE, VMBOX, WFC911'),
    effectiveDate: z.string().describe('Date the feature took effect, YYYY-MM-DD'),
  })
  .meta({ id: 'LineProduct', description: 'A feature SOC active on a line' });

export const productsResult = z
  .object({
    status: operationStatus,
    mdn: z.string().describe('Subscriber number'),
    products: z.array(lineProduct).optional().describe('The active feature SOCs'),
    message: resultMessage,
  })
  .meta({ id: 'ProductsResult', description: 'The feature SOCs active on a line' });

export const products = defineOperation({
  name: 'products',
  kind: 'query',
  description: 'The feature SOCs active on a line (carrier 321 only; 501 elsewhere)',
  rest: { method: 'GET', path: '/sim/products/{mdn}' },
  input: z.object({ mdn }),
  output: productsResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'line',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => answered(await extended.getProducts(input.mdn)),
  onRejection: (rejection, { input }) => refused(rejection, { mdn: input.mdn }),
});
