// Members of the balance adjustments (single and multiple).

import { z } from 'zod';
import { MAX_LENGTH, nonEmpty } from '../schemas/fields.js';

export const subscriptionId = nonEmpty(
  'subscription_id',
  'Subscription (purchase) id whose balance is adjusted',
  MAX_LENGTH.carrierId,
);

// Byte amounts exceed GraphQL's 32-bit Int (5 GiB > 2^31), so the amount is a JSON number
// checked to be a whole number here, and shows as Float in GraphQL.
export const amount = z
  .number()
  .refine((value) => Number.isSafeInteger(value), 'amount must be an integer')
  .describe('Whole amount in the unit: positive adds, negative deducts');

const DATE_FORM = /^\d{4}-\d{2}-\d{2}$/;

/** A real day of the calendar; values not in YYYY-MM-DD form pass here (the regex reports them, once). */
const isCalendarDate = (value: string) => {
  if (!DATE_FORM.test(value)) return true;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

export const expiryDate = z
  .string()
  .max(10, { error: 'expiry_date must be a date in YYYY-MM-DD form', abort: true })
  .regex(DATE_FORM, 'expiry_date must be a date in YYYY-MM-DD form')
  .refine(isCalendarDate, 'expiry_date must be a valid calendar date')
  .describe('New expiry date of the balance, YYYY-MM-DD (the balance then ends at 23:59:59 UTC that day)');
