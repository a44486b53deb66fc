// README's configuration table is copied from the code (`npm run --silent admin -- config`):
// this keeps the copy true, so that a variable added to src/config.ts cannot go undocumented.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeConfig } from '../../src/config.js';

const README = new URL('../../README.md', import.meta.url);

function readmeRows(): Map<string, { defaultValue: string; meaning: string }> {
  const rows = new Map<string, { defaultValue: string; meaning: string }>();
  for (const line of readFileSync(README, 'utf8').split('\n')) {
    const cells = /^\| `([A-Z0-9_]+)` \| (.*?) \| (.*) \|$/.exec(line);
    if (!cells) continue;
    rows.set(cells[1]!, {
      defaultValue: cells[2] === '(unset)' ? '' : cells[2]!.replace(/^`|`$/g, ''),
      meaning: cells[3]!,
    });
  }
  return rows;
}

describe("README's configuration table", () => {
  it('lists every variable the gateway reads, with its default and meaning, and nothing else', () => {
    const documented = readmeRows();
    const actual = describeConfig();
    expect([...documented.keys()].sort()).toEqual(actual.map((variable) => variable.name).sort());
    for (const variable of actual) {
      expect(documented.get(variable.name), variable.name).toEqual({
        defaultValue: variable.defaultValue,
        meaning: variable.description,
      });
    }
  });
});
