// Token lifetimes as people write them (`30m`, `12h`, `30d`, `2w`), read the same way by the
// configuration (TOKEN_TTL), the admin command line and the issueToken operation.

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** The longest lifetime a token may be given: ten years (longer ones overflow JWT and dates). */
export const MAX_TOKEN_LIFETIME = '3650d';
export const MAX_TOKEN_LIFETIME_MS = 3650 * UNIT_MS.d;

/** What is wrong with `text` as a token lifetime, or its milliseconds. */
export function tokenLifetime(text: string): { ms: number } | { problem: string } {
  const match = /^(\d+)([smhdw])$/.exec(text.trim());
  if (!match) return { problem: 'use a number followed by s, m, h, d or w (e.g. 30d)' };
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms <= 0) return { problem: 'a token lifetime must be positive' };
  if (ms > MAX_TOKEN_LIFETIME_MS) return { problem: `a token lifetime must be at most ${MAX_TOKEN_LIFETIME}` };
  return { ms };
}
