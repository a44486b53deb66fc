// The request of child-line add and remove (shared/family plans): the parent line, which the
// operation is routed by and answers for, and the child line.

import { z } from 'zod';
import { transactionId } from '../schemas/fields.js';
import { iccidNamed, mdnNamed } from './line-fields.js';

export const childLineInput = z.object({
  parentMdn: mdnNamed('parent_mdn', 'Number (MDN) of the parent line, 10 digits'),
  parentSim: iccidNamed('parent_sim', "The parent line's SIM (ICCID), alphanumeric, at most 25 characters"),
  childMdn: mdnNamed('child_mdn', 'Number (MDN) of the child line, 10 digits'),
  childSim: iccidNamed(
    'child_sim',
    "The child line's SIM (ICCID), for verification, alphanumeric, at most 25 characters",
  ).optional(),
  transactionId: transactionId.optional(),
});
