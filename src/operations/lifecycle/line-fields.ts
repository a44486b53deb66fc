// Line identifiers under other names than `mdn`/`sim` (parent_mdn, new_sim…): the same limits
// as the shared fields, with a 422 message that names the field the caller actually sent.

import { matching } from '../schemas/fields.js';

export const mdnNamed = (field: string, description: string) =>
  matching(/^\d{10}$/, 10, `${field} must be exactly 10 digits`).describe(description);

export const iccidNamed = (field: string, description: string) =>
  matching(/^[A-Za-z0-9]{1,25}$/, 25, `${field} must be alphanumeric, at most 25 characters`).describe(description);
