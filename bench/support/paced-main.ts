// The paced load generator as its own process: `node --import tsx bench/support/paced-main.ts
// <options.json>` runs `runPaced` with the options in that file and prints its result as JSON on
// stdout. A process of its own, so that nothing else (the bench's bookkeeping, autocannon's
// leftovers, a garbage collection of the bench's heap) can delay a send.

import { readFileSync } from 'node:fs';
import { runPaced, type PacedOptions } from './paced.js';

const file = process.argv[2];
if (!file) throw new Error('usage: paced-main.ts <options.json>');
const options = JSON.parse(readFileSync(file, 'utf8')) as PacedOptions;
const result = await runPaced(options);
process.stdout.write(`${JSON.stringify(result)}\n`);
