// POST /sim/voicemail/language/: sets the voicemail and IVR language of a line.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { language, mdn, transactionId } from '../schemas/fields.js';
import { predictLine } from '../predictions.js';

export const setVoicemailLanguage = defineOperation({
  name: 'setVoicemailLanguage',
  kind: 'mutation',
  description:
    'Sets the voicemail language of a line: ENGL (English) or SPAN (Spanish); any other value is refused (422)',
  rest: { method: 'POST', path: '/sim/voicemail/language/' },
  input: z.object({ mdn, language, transactionId: transactionId.optional() }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'VM_LANG_',
  event: {
    type: 'line.feature_changed',
    data: (input) => ({ feature: 'voicemail_language', language: input.language }),
  },
  // Dry run: the line (909, 918, 915); nothing else can refuse a language.
  predict: async (context) => {
    await predictLine(context, context.input.mdn);
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.setVoicemailLanguage({ mdn: input.mdn, language: input.language, transactionId: id });
    return performed(id, { mdn: input.mdn });
  },
});
