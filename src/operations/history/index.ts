// A line's history: its transactions (and, later, its events), newest first.

import { lineHistory } from './line-history.js';

export const historyOperations = [lineHistory];
